import { EntityManager } from '@mikro-orm/postgresql';
import { DESCRIBED } from '../../../core/catalog/catalog-entity';
import { CatalogService } from '../../../core/catalog/catalog.service';
import { arrayLiteral } from '../../../core/db/array-literal';
import { AppError, badRequest } from '../../../core/errors';
import { Locale } from '../../../core/i18n';
import { recordIdsAmong } from '../../../core/ids';
import { offsetOf, Page, PageArgs, pageOf } from '../../../core/pagination';
import { Segment, SegmentRule, SegmentType } from '../entities/segment';
import { Tier } from '../entities/tier';
import { CreateSegmentInput, SegmentListArgs, SegmentMember, SegmentMembershipChange, SegmentRuleInput, UpdateSegmentInput } from '../types/segment.types';

/**
 * A rule as SQL over the members the cluster domain knows (a tier projection, a point-event summary or
 * a profile), with `tp` the tier projection, `mp` the member_purchase row and `pr` the profile (left-joined).
 */
function ruleCondition(rule: SegmentRule): { sql: string; params: unknown[] } {
  const parts: string[] = [];
  const params: unknown[] = [];
  if (rule.tierIds?.length) {
    parts.push('tp.tier_id = any(?::uuid[])');
    params.push(arrayLiteral(rule.tierIds));
  }
  if (rule.minPoints !== undefined && rule.minPoints !== null) {
    parts.push('mp.points >= ?');
    params.push(rule.minPoints);
  }
  if (rule.maxPoints !== undefined && rule.maxPoints !== null) {
    parts.push('mp.points <= ?');
    params.push(rule.maxPoints);
  }
  if (rule.activeWithinDays !== undefined && rule.activeWithinDays !== null) {
    parts.push(`coalesce(mp.points_at, mp.updated_at) >= now() - make_interval(days => ?)`);
    params.push(rule.activeWithinDays);
  }
  if (rule.birthdayMonth !== undefined && rule.birthdayMonth !== null) {
    parts.push('pr.birth_month = ?');
    params.push(rule.birthdayMonth);
  }
  return { sql: parts.length ? parts.join(' and ') : 'false', params };
}

const KNOWN_MEMBERS = `(select member_id from cluster.tier_projection union select member_id from cluster.member_purchase
   union select member_id from cluster.member_profile) m
  left join cluster.tier_projection tp on tp.member_id = m.member_id
  left join cluster.member_purchase mp on mp.member_id = m.member_id
  left join cluster.member_profile pr on pr.member_id = m.member_id`;

/** Segments: localized CRUD with soft delete, manual membership, rule segments evaluated on read. */
export class SegmentService extends CatalogService<Segment> {
  constructor(em: EntityManager) {
    super(em, {
      entity: Segment,
      label: 'Segment',
      localized: DESCRIBED,
      orderBy: { createdAt: 'desc', id: 'asc' },
      unique: { field: 'name_en', message: () => 'A live segment with this name_en already exists' },
    });
  }

  /** Newest first; `search` matches the names in any language. Deleting a segment keeps its manual rows. */
  override list(args: SegmentListArgs, locale?: Locale): Promise<Page<Segment>> {
    return super.list(args, locale, args.type ? { type: args.type } : {});
  }

  async create(input: CreateSegmentInput): Promise<Segment> {
    const rule = await this.ruleFor(input.type, input.rule);
    const segment = this.em.create(Segment, { ...this.localizedValues({ ...input }), name_en: input.name_en, type: input.type, rule });
    await this.flush(segment);
    return segment;
  }

  async update(id: string, input: UpdateSegmentInput): Promise<Segment> {
    const segment = await this.live(id);
    this.assignLocalized(segment, { ...input });
    if (input.rule !== undefined) segment.rule = await this.ruleFor(segment.type, input.rule);
    await this.flush(segment);
    return segment;
  }

  /** Manual segments by when the member was added (newest first); rule segments by member id. */
  async members(id: string, args: PageArgs): Promise<Page<SegmentMember>> {
    const segment = await this.live(id);
    const connection = this.em.getConnection();
    if (segment.type === SegmentType.manual) {
      const rows = await connection.execute<Array<{ member_id: string; created_at: Date; total: number }>>(
        `select member_id, created_at, count(*) over ()::int as total from cluster.segment_member
          where segment_id = ? order by created_at desc, member_id limit ? offset ?`,
        [id, args.limit, offsetOf(args)],
      );
      const total = rows[0]?.total ?? (await this.memberCount(segment));
      return pageOf(
        rows.map((row) => ({ memberId: row.member_id, addedAt: new Date(row.created_at) })),
        total,
        args,
      );
    }
    const condition = ruleCondition(segment.rule ?? {});
    const rows = await connection.execute<Array<{ member_id: string }>>(
      `select m.member_id from ${KNOWN_MEMBERS} where ${condition.sql} order by m.member_id limit ? offset ?`,
      [...condition.params, args.limit, offsetOf(args)],
    );
    return pageOf(
      rows.map((row) => ({ memberId: row.member_id, addedAt: null })),
      await this.memberCount(segment),
      args,
    );
  }

  /** Member ids after `after` in id order (a rule segment evaluated now): one index range per page, however deep. */
  async memberIdsAfter(id: string, after: string | null, limit: number): Promise<string[]> {
    const segment = await this.live(id);
    const connection = this.em.getConnection();
    if (segment.type === SegmentType.manual) {
      const rows = await connection.execute<Array<{ member_id: string }>>(
        `select member_id from cluster.segment_member where segment_id = ? and member_id > ? order by member_id limit ?`,
        [id, after ?? '00000000-0000-0000-0000-000000000000', limit],
      );
      return rows.map((row) => row.member_id);
    }
    const condition = ruleCondition(segment.rule ?? {});
    const rows = await connection.execute<Array<{ member_id: string }>>(
      `select m.member_id from ${KNOWN_MEMBERS} where m.member_id > ? and ${condition.sql} order by m.member_id limit ?`,
      [after ?? '00000000-0000-0000-0000-000000000000', ...condition.params, limit],
    );
    return rows.map((row) => row.member_id);
  }

  async memberCount(segment: Segment): Promise<number> {
    const connection = this.em.getConnection();
    if (segment.type === SegmentType.manual) {
      const [row] = await connection.execute<Array<{ count: number }>>('select count(*)::int as count from cluster.segment_member where segment_id = ?', [segment.id]);
      return row.count;
    }
    const condition = ruleCondition(segment.rule ?? {});
    const [row] = await connection.execute<Array<{ count: number }>>(`select count(*)::int as count from ${KNOWN_MEMBERS} where ${condition.sql}`, condition.params);
    return row.count;
  }

  /** The live segments the member is in now (manual memberships and matching rules), by name. */
  async ofMember(memberId: string, locale?: Locale): Promise<Segment[]> {
    const connection = this.em.getConnection();
    const manual = await connection.execute<Array<{ segment_id: string }>>('select segment_id from cluster.segment_member where member_id = ?', [memberId]);
    const ids = new Set(manual.map((row) => row.segment_id));
    const rules = await this.em.find(Segment, { type: SegmentType.rule });
    for (const segment of rules) {
      const condition = ruleCondition(segment.rule ?? {});
      const [row] = await connection.execute<Array<{ hit: boolean }>>(`select exists(select 1 from ${KNOWN_MEMBERS} where m.member_id = ? and ${condition.sql}) as hit`, [
        memberId,
        ...condition.params,
      ]);
      if (row.hit) ids.add(segment.id);
    }
    const segments = await this.em.find(Segment, { id: { $in: [...ids] } }, { orderBy: { name_en: 'asc', id: 'asc' } });
    return segments.map((segment) => this.localize(segment, locale));
  }

  /** Adds members to a manual segment; members already in are skipped. 400 on a rule segment. */
  async addMembers(id: string, memberIds: string[]): Promise<SegmentMembershipChange> {
    const segment = await this.manual(id);
    const rows = await this.em.getConnection().execute<Array<{ member_id: string }>>(
      `insert into cluster.segment_member (segment_id, member_id, created_at)
       select ?, unnest(?::uuid[]), now() on conflict do nothing returning member_id`,
      [id, arrayLiteral([...new Set(memberIds)])],
    );
    return { segmentId: id, changed: rows.length, memberCount: await this.memberCount(segment) };
  }

  /** Removes members from a manual segment; members not in it are skipped. 400 on a rule segment. */
  async removeMembers(id: string, memberIds: string[]): Promise<SegmentMembershipChange> {
    const segment = await this.manual(id);
    const rows = await this.em
      .getConnection()
      .execute<Array<{ member_id: string }>>('delete from cluster.segment_member where segment_id = ? and member_id = any(?::uuid[]) returning member_id', [id, arrayLiteral(memberIds)]);
    return { segmentId: id, changed: rows.length, memberCount: await this.memberCount(segment) };
  }

  private async manual(id: string): Promise<Segment> {
    const segment = await this.live(id);
    if (segment.type !== SegmentType.manual) throw badRequest('Members are picked only for manual segments; a rule segment takes whoever matches its rule', 'id');
    return segment;
  }

  /** The stored rule: required (with a criterion) for rule segments, refused for manual ones. */
  private async ruleFor(type: SegmentType, input: SegmentRuleInput | null | undefined): Promise<SegmentRule | null> {
    if (type === SegmentType.manual) {
      if (input) throw badRequest('A manual segment has no rule', 'rule');
      return null;
    }
    if (!input) throw badRequest('A rule segment needs a rule', 'rule');
    const rule: SegmentRule = {};
    if (input.tierIds?.length) {
      const tierIds = [...new Set(input.tierIds)];
      const live = await this.em.count(Tier, { id: { $in: recordIdsAmong(tierIds) } });
      if (live !== tierIds.length) throw badRequest('Every tier id must be a live tier', 'rule.tierIds');
      rule.tierIds = tierIds;
    }
    if (input.minPoints !== undefined && input.minPoints !== null) rule.minPoints = input.minPoints;
    if (input.maxPoints !== undefined && input.maxPoints !== null) rule.maxPoints = input.maxPoints;
    if (typeof rule.minPoints === 'number' && typeof rule.maxPoints === 'number' && rule.maxPoints < rule.minPoints) {
      throw badRequest('maxPoints must not be below minPoints', 'rule.maxPoints');
    }
    if (input.activeWithinDays !== undefined && input.activeWithinDays !== null) rule.activeWithinDays = input.activeWithinDays;
    if (input.birthdayMonth !== undefined && input.birthdayMonth !== null) rule.birthdayMonth = input.birthdayMonth;
    if (Object.keys(rule).length === 0) throw new AppError('BAD_REQUEST', 'A rule needs at least one criterion', [{ field: 'rule', message: 'A rule needs at least one criterion' }]);
    return rule;
  }
}
