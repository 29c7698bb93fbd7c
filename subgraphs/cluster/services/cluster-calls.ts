import { MikroORM } from '@mikro-orm/core';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { handle, HandledCall } from '../../../core/domain-calls';
import { tiersOfMembers } from '../context';
import { CLUSTER } from '../contract';
import { MemberReference } from '../types/member.type';

/** The cluster's answers to other domains in its process (CLUSTER.calls): a member's tier as `Member.tier` resolves it. */
export function clusterCalls(orm: MikroORM<PostgreSqlDriver>): HandledCall[] {
  return [
    handle(CLUSTER.calls.memberTier, async ({ id, projectedTierId }) => {
      const member = Object.assign(new MemberReference(), { id, projectedTierId });
      const tier = (await tiersOfMembers(orm.em.fork(), [member])).get(member);
      return { tierId: tier?.id ?? null };
    }),
  ];
}
