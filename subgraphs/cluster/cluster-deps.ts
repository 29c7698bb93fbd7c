/** What the cluster resolvers need besides the request context. Grows with the domain. */
export interface ClusterDeps {
  publicUrl: string;
}
