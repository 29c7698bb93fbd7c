import { MemberTierLoaders } from './services/tier-loader';

/** What the cluster resolvers need besides the request context. Grows with the domain. */
export interface ClusterDeps {
  publicUrl: string;
  /** Member.tier, batched per request. */
  memberTierLoaders: MemberTierLoaders;
}
