import 'reflect-metadata';
import { runSubgraph } from '../../core/entry-point';
import { startAuthSubgraph } from './subgraph';

/** Runs the auth subgraph alone (docker-compose runs each part as its own service). */
runSubgraph('auth', (config, databaseUrl, logger) => startAuthSubgraph(config, databaseUrl, logger));
