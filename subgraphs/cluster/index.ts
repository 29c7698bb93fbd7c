import 'reflect-metadata';
import { runSubgraph } from '../../core/entry-point';
import { startClusterSubgraph } from './subgraph';

/** Runs the cluster subgraph alone (docker-compose runs each part as its own service). */
runSubgraph('cluster', (config, databaseUrl, logger) => startClusterSubgraph(config, databaseUrl, logger));
