import { MikroORM } from '@mikro-orm/core';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { handle, HandledCall } from '../../../core/domain-calls';
import { isRecordId } from '../../../core/ids';
import { AUTH } from '../contract';

/** Auth's answers to other domains in its process (AUTH.calls): `auth.member` is one statement, the member with its projected tier. */
export function authCalls(orm: MikroORM<PostgreSqlDriver>): HandledCall[] {
  return [
    handle(AUTH.calls.member, async ({ id }) => {
      if (!isRecordId(id)) return null;
      const [row]: Array<{ id: string; tier_id: string | null }> = await orm.em.fork().execute(
        `select m.id, t.tier_id from auth.member m left join auth.member_tier t on t.member_id = m.id where m.id = ? and m.deleted_at is null`,
        [id],
      );
      return row ? { id: row.id, projectedTierId: row.tier_id } : null;
    }),
  ];
}
