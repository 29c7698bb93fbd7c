import 'reflect-metadata';
import { runPart } from '../core/entry-point';
import { listen } from '../core/http';
import { apiSchemaOf, readSupergraphSdl } from '../core/supergraph';
import { createRestApp } from './app';

/** Runs the REST adapter alone, in front of the gateway at GATEWAY_URL. */
runPart('rest', '', (config, logger) => listen(createRestApp({ config, apiSchema: apiSchemaOf(readSupergraphSdl()), logger }), config.port));
