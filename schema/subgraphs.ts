import { BuiltSubgraph } from '../core/subgraph';
import { buildAuthSubgraph } from '../subgraphs/auth/subgraph';
import { buildClusterSubgraph } from '../subgraphs/cluster/subgraph';
import { buildPointSubgraph } from '../subgraphs/point/subgraph';

/** Every subgraph of the supergraph, by name, built for printing (no dependencies needed). */
export const SUBGRAPH_BUILDERS: Record<string, () => Promise<BuiltSubgraph>> = {
  auth: () => buildAuthSubgraph(),
  point: () => buildPointSubgraph(),
  cluster: () => buildClusterSubgraph(),
};
