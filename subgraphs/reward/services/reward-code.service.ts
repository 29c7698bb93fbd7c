import { EntityManager } from '@mikro-orm/postgresql';
import { Principal } from '../../../core/auth/principal';
import { INCLUDING_DELETED } from '../../../core/db/soft-deletable';
import { AppError, badRequest, forbidden, notFound, unauthenticated, validationError } from '../../../core/errors';
import { recordEvent } from '../../../core/events/outbox-event';
import { isRecordId } from '../../../core/ids';
import { Page, readPage } from '../../../core/pagination';
import { escapeLike } from '../../../core/search';
import { REWARD, RewardRedeemed } from '../contract';
import { Reward } from '../entities/reward';
import { RewardCode, RewardCodeStatus } from '../entities/reward-code';
import { MemberRewardCodesArgs, RewardCodeCheck, RewardCodeListArgs } from '../types/reward-code.types';

const LABEL = 'Reward code';

/** The `status` filter in SQL on the code `c`, evaluated at the statement's now() (the entity's `status` in TypeScript). */
const STATUS_SQL: Record<RewardCodeStatus, string> = {
  AVAILABLE: 'c.used_at is null and c.expired_at > now()',
  USED: 'c.used_at is not null',
  EXPIRED: 'c.used_at is null and c.expired_at <= now()',
};

const CHECK_MESSAGES: Record<RewardCodeStatus, string> = {
  AVAILABLE: 'Reward code is valid',
  USED: 'Reward code already used',
  EXPIRED: 'Reward code expired',
};

/** What a member types or a staff member reads out: case does not matter, surrounding spaces neither. */
export const normalizeCode = (characters: string): string => characters.trim().toUpperCase();

/**
 * Reward codes: the filtered lists (staff, a member's own, Member.rewardCodes), one code for staff or
 * its owner, the check a store runs before using one, and the use itself.
 */
export class RewardCodeService {
  constructor(private readonly em: EntityManager) {}

  /** Newest first (then by id): one count and one page query, the far pages read from the other end. */
  async list(args: RewardCodeListArgs): Promise<Page<RewardCode>> {
    const { where, params } = listConditions(args);
    const from = `from reward.reward_code c where ${where.join(' and ')}`;
    const connection = this.em.getConnection();
    const [{ total }] = await connection.execute<Array<{ total: number }>>(`select count(*)::int as total ${from}`, params);
    return readPage(total, args, async ({ offset, limit, reverse }) => {
      const order = reverse ? 'c.created_at asc, c.id desc' : 'c.created_at desc, c.id asc';
      const rows = await connection.execute(`select c.* ${from} order by ${order} limit ? offset ?`, [...params, limit, offset]);
      return rows.map((row) => this.em.map(RewardCode, row));
    });
  }

  /** Member.rewardCodes: the member itself, or a holder of reward:read or reward:manage; anyone else is 403. */
  listOfMember(memberId: string, args: MemberRewardCodesArgs, reader: Principal | undefined): Promise<Page<RewardCode>> {
    if (!reader) throw unauthenticated();
    const self = reader.kind === 'member' && reader.id === memberId;
    if (!self && !reader.can(REWARD.permissions.read) && !reader.can(REWARD.permissions.manage)) throw forbidden();
    return this.list({ ...args, memberId });
  }

  /** One code; a member reading another member's code is told it does not exist (404), as for an unknown id. */
  async get(id: string, reader: Principal): Promise<RewardCode> {
    const code = isRecordId(id) ? await this.em.findOne(RewardCode, { id }) : null;
    if (!code || (reader.kind === 'member' && code.memberId !== reader.id)) throw notFound(LABEL, id);
    return code;
  }

  /**
   * Whether `characters` name a code that may be used now. Codes are unique among unused ones, so a
   * string names at most one unused code (preferred) and any number of used ones (the latest is
   * shown). A string that names no code is 400 `Invalid code`.
   */
  async check(characters: string): Promise<RewardCodeCheck> {
    const rows = await this.em.execute(`select * from reward.reward_code where code = ? order by used_at desc nulls first, created_at desc, id limit 1`, [
      normalizeCode(characters),
    ]);
    if (rows.length === 0) throw badRequest('Invalid code', 'code');
    const rewardCode = this.em.map(RewardCode, rows[0]);
    const reward = await this.em.findOne(Reward, { id: rewardCode.rewardId }, INCLUDING_DELETED);
    const status = rewardCode.status;
    return { valid: status === RewardCodeStatus.AVAILABLE, message: CHECK_MESSAGES[status], rewardCode, reward };
  }

  /**
   * A staff member marks the code used, in one transaction: one conditional UPDATE of the code (so of
   * concurrent uses exactly one changes the row; the others then find it used), the `used` counts of
   * its reward and catalog, and `reward.redeemed` in the outbox. 400 when the characters are not the
   * code's (`Invalid code`), when it is used (`already used`) or past its expiry (`expired`).
   */
  async use(id: string, characters: string, staff: Principal): Promise<RewardCode> {
    if (staff.kind !== 'staff') throw forbidden('Only a staff member marks a reward code used');
    const code = normalizeCode(characters);
    return this.em.transactional(async (em) => {
      const used = isRecordId(id)
        ? await em.execute(
            `update reward.reward_code set used_at = now(), staff_id = ?, updated_at = now()
              where id = ? and code = ? and used_at is null and expired_at > now() returning *`,
            [staff.id, id, code],
          )
        : [];
      if (used.length === 0) throw await refusal(em, id, code);
      const rewardCode = em.map(RewardCode, used[0]);
      await em.execute('update reward.reward set used_count = used_count + 1 where id = ?', [rewardCode.rewardId]);
      await em.execute('update reward.reward_catalog set used_count = used_count + 1 where id = ?', [rewardCode.rewardCatalogId]);
      const redeemed: RewardRedeemed = {
        memberId: rewardCode.memberId,
        rewardId: rewardCode.rewardId,
        rewardCatalogId: rewardCode.rewardCatalogId,
        rewardCodeId: rewardCode.id,
        staffId: staff.id,
        usedAt: rewardCode.usedAt!.toISOString(),
      };
      recordEvent(em, REWARD.events.redeemed, redeemed, { aggregateId: rewardCode.memberId });
      await em.flush();
      return rewardCode;
    });
  }
}

/** Why a use changed no row, read after it (a concurrent use has committed by then): 404, or 400 with the reason. */
async function refusal(em: EntityManager, id: string, code: string): Promise<AppError> {
  const existing = isRecordId(id) ? await em.findOne(RewardCode, { id }) : null;
  if (!existing) return notFound(LABEL, id);
  if (existing.code !== code) return badRequest('Invalid code', 'code');
  if (existing.usedAt) return badRequest('Reward code already used', 'code');
  return badRequest('Reward code expired', 'code');
}

/** The list's filters as SQL conditions on the code `c`, with their parameters in order. */
function listConditions(args: RewardCodeListArgs): { where: string[]; params: unknown[] } {
  const where: string[] = ['true'];
  const params: unknown[] = [];
  const add = (condition: string, ...values: unknown[]) => {
    where.push(condition);
    params.push(...values);
  };
  if (args.start && args.end && args.start > args.end) throw validationError([{ field: 'end', message: 'end must not be before start' }]);
  if (args.memberId) add('c.member_id = ?', args.memberId);
  if (args.rewardId) add('c.reward_id = ?', args.rewardId);
  if (args.rewardCatalogId) add('c.reward_catalog_id = ?', args.rewardCatalogId);
  if (args.staffId) add('c.staff_id = ?', args.staffId);
  if (args.search?.trim()) add('c.code like ?', `${escapeLike(normalizeCode(args.search))}%`);
  if (args.start) add('c.created_at >= ?', args.start);
  if (args.end) add('c.created_at <= ?', args.end);
  if (args.status) add(`(${STATUS_SQL[args.status]})`);
  return { where, params };
}
