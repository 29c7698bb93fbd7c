import { notFound } from './errors';
import { isRecordId } from './ids';
import type { MemberProjection } from './member-projection';
import { SupergraphClient } from './supergraph-client';

/**
 * The document a domain asks which members exist with: `membersByIds` (auth, `member:read`). Each
 * domain names its own (`<Domain>KnownMembers`) in its supergraph operations, for logs and schema checks.
 */
export const knownMembersDocument = (name: string) => `query ${name}($ids: [ID!]!) { membersByIds(ids: $ids) { id } }`;

/** What membersByIds takes at once. */
const IDS_PER_CALL = 500;

/**
 * Which members exist (live, not erased), for a domain's write path. From the domain's own projection
 * (core/member-projection.ts): a member it holds as live is known and one it holds as deleted is not,
 * without asking anyone; only the others are asked of the auth domain through the supergraph (as the
 * domain's service), and those auth confirms are remembered.
 */
export class KnownMembers {
  constructor(
    private readonly supergraph: SupergraphClient,
    private readonly document: string,
    private readonly projection: MemberProjection,
  ) {}

  /** The ids among `ids` that name a member (lowercase); what is no id at all names nobody. */
  async known(ids: string[], requestId?: string): Promise<Set<string>> {
    const asked = [...new Set(ids.filter(isRecordId).map((id) => id.toLowerCase()))];
    const { live, deleted } = await this.projection.lookup(asked);
    const confirmed = await this.askAuth(asked.filter((id) => !live.has(id) && !deleted.has(id)), requestId);
    await this.projection.remember([...confirmed]);
    return new Set([...live, ...confirmed]);
  }

  /** 404 (`Member not found`) for an unknown or deleted member, or what is no id at all. */
  async assertExists(memberId: string, requestId?: string): Promise<void> {
    if (!(await this.known([memberId], requestId)).has(memberId.toLowerCase())) throw notFound('Member', memberId);
  }

  private async askAuth(ids: string[], requestId?: string): Promise<Set<string>> {
    const found = new Set<string>();
    for (let start = 0; start < ids.length; start += IDS_PER_CALL) {
      const data = await this.supergraph.run<{ membersByIds: Array<{ id: string }> }>(this.document, { ids: ids.slice(start, start + IDS_PER_CALL) }, requestId);
      for (const member of data.membersByIds) found.add(member.id.toLowerCase());
    }
    return found;
  }
}
