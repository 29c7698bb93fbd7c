import 'reflect-metadata';
import { runSubgraph } from '../../core/entry-point';
import { startPointSubgraph } from './subgraph';

/** Runs the point subgraph alone (docker-compose runs each part as its own service). */
runSubgraph('point', (config, databaseUrl, logger) => startPointSubgraph(config, databaseUrl, logger));
