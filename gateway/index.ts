import 'reflect-metadata';
import { runPart } from '../core/entry-point';
import { startGateway } from './gateway';

/** Runs the gateway alone; subgraph URLs come from AUTH_URL, POINT_URL and the other *_URL variables. */
runPart('gateway', '/graphql', (config, logger) => startGateway({ port: config.gatewayPort, subgraphUrls: config.subgraphUrls, logger }));
