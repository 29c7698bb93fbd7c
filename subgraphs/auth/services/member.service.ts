import { EntityDictionary, EntityManager, raw, UniqueConstraintViolationException } from '@mikro-orm/postgresql';
import QRCode from 'qrcode';
import { readRowsByIds } from '../../../core/db/coalesced-read';
import { columnsOf, RowLookup, tableOf, viewOf } from '../../../core/db/row-lookup';
import { INCLUDING_DELETED } from '../../../core/db/soft-deletable';
import { arrayLiteral } from '../../../core/db/array-literal';
import { notFound, unauthenticated } from '../../../core/errors';
import { tallyTotal } from '../../../core/db/tally';
import { findPage, Page } from '../../../core/pagination';
import { containsAny } from '../../../core/search';
import { recordEvent } from '../../../core/events/outbox-event';
import { AuthDeps } from '../auth-deps';
import { Gender, Member, MemberStatus } from '../entities/member';
import { AUTH } from '../contract';
import { ChatappProfileInput, CreateMemberDirectInput, MemberDirectUpdateInput, MemberListArgs, MemberProfileInput } from '../types/member.inputs';
import { MemberQrCode } from '../types/member.types';
import { MemberLogin, MemberLoginStatus } from '../types/session.types';
import { memberPrincipal, SessionService } from './session.service';
import { ENTRY_TIER_PROMISE } from '../../cluster/contract';
import { TierFilter, tierFilterOf } from './tier-catalog';
import { announceCustomerCreated, announceCustomerUpdated, customerProfileOf } from './customer-events';

const CHATAPP_GENDER: Record<number, Gender | null> = { 0: null, 1: Gender.Male, 2: Gender.Female };

/** A live member by id: every mini-program request about the member reads one. */
const liveMemberById = new RowLookup(Member, 'id', { live: true });

/** A member read for an answer only, with auth's projection of its tier (what `Member.projectedTierId` answers) read with it. */
export type MemberView = Member & { projectedTierId?: string | null };

/** The live member with its tier projection, in one statement (compiled once). */
let memberViewSql: string | undefined;
const memberViewSqlOf = (em: EntityManager) =>
  (memberViewSql ??= `select ${columnsOf(em, Member, 'm')}, mt.tier_id as projected_tier_id
     from ${tableOf(em, Member)} m left join auth.member_tier mt on mt.member_id = m.id
    where m.id = any($1::uuid[]) and m.deleted_at is null`);

/** Members: chat-app login, profiles, identity QR codes, staff-side creation and updates. */
export class MemberService {
  constructor(
    private readonly em: EntityManager,
    private readonly deps: AuthDeps,
  ) {}

  /**
   * Logs a member in with a chat-app login code (issued for our app id, when one is named), creating the
   * member on first login, referred by the owner of `referralCode` when it comes with the sign-up.
   */
  async chatappLogin(code: string, appId?: string, referralCode?: string): Promise<MemberLogin> {
    this.deps.chatapp.checkAppId(appId);
    const identity = await this.deps.chatapp.exchangeCode(code);
    let status: MemberLoginStatus = MemberLoginStatus.EXISTING;
    // A deleted member's identity too: it is refused below, not signed up again.
    let member = await this.em.findOne(Member, { openId: identity.openId }, INCLUDING_DELETED);
    if (!member) {
      try {
        member = this.em.create(Member, { openId: identity.openId, unionId: identity.unionId ?? null });
        announceProfile(this.em, member);
        announceCustomerCreated(this.em, member, false, referralCode);
        await this.em.flush();
        status = MemberLoginStatus.NEW;
      } catch (error) {
        if (!(error instanceof UniqueConstraintViolationException)) throw error;
        this.em.clear();
        member = await this.em.findOneOrFail(Member, { openId: identity.openId }, INCLUDING_DELETED);
      }
    }
    if (member.deletedAt || member.status === MemberStatus.INACTIVE) throw unauthenticated('Member account is not active');
    const tokens = await new SessionService(this.em, this.deps).issue(memberPrincipal(member));
    return { status, ...tokens, member };
  }

  async get(id: string): Promise<Member> {
    const member = await liveMemberById.find(this.em, id);
    if (!member) throw notFound('Member', id);
    return member;
  }

  /**
   * The live member for an answer only: not tracked by the unit of work, so nothing to flush. Its tier
   * projection comes with it: a customer read asks for it on behalf of the cluster's `tier`.
   */
  async view(id: string): Promise<MemberView> {
    const [row] = await readRowsByIds<EntityDictionary<Member> & { projected_tier_id: string | null }>(this.em, memberViewSqlOf(this.em), [id], 'id');
    if (!row) throw notFound('Member', id);
    const { projected_tier_id: projectedTierId, ...member } = row;
    return Object.assign(viewOf(this.em, Member, member as EntityDictionary<Member>), { projectedTierId });
  }

  /** Newest first; unfiltered, the total is the `live_members` tally, and a far page costs what a near one does. */
  async list(args: MemberListArgs): Promise<Page<Member>> {
    const where: Record<string, unknown> = {};
    if (args.birthdayFrom) where.birthDay = { $gte: args.birthdayFrom.slice(0, 10) };
    if (args.search) Object.assign(where, containsAny(['name', 'nickName', 'phoneNumber', 'email'], args.search));
    if (args.statusIn) where.status = { $in: args.statusIn };
    const created = createdRange(args.createdFrom, args.createdTo);
    if (created) where.createdAt = created;
    const tiers = args.tier !== undefined ? await tierFilterOf(this.em, args.tier) : undefined;
    // A raw condition serves one query: the count and the page each get their own.
    const conditions = () => (tiers ? { ...where, ...onTiers(tiers) } : where);
    const filtered = args.birthdayFrom || args.search || args.statusIn || created || tiers;
    const total = filtered ? await this.em.count(Member, conditions()) : await tallyTotal(this.em, 'auth', 'live_members');
    const orderBy = { [args.sortBy ?? 'createdAt']: args.sortOrder ?? 'desc', ...(args.sortBy === 'createdAt' ? {} : { createdAt: 'desc' as const }), id: 'asc' as const };
    return findPage(this.em, Member, conditions(), orderBy, args, total);
  }

  async findByIds(ids: string[]): Promise<Member[]> {
    if (ids.length === 0) return [];
    return this.em.find(Member, { id: { $in: ids } }, { orderBy: { createdAt: 'desc', id: 'asc' } });
  }

  async updateProfile(id: string, input: MemberDirectUpdateInput): Promise<Member> {
    const member = await this.get(id);
    const before = customerProfileOf(member);
    applyProfile(member, input);
    announceProfile(this.em, member);
    announceCustomerUpdated(this.em, before, member);
    await this.em.transactional(async (em) => {
      await em.flush();
      if (member.status === MemberStatus.INACTIVE) await new SessionService(em, this.deps).revokeAllOf('member', member.id);
    });
    return member;
  }

  async createDirect(input: CreateMemberDirectInput): Promise<Member> {
    const member = this.em.create(Member, { status: MemberStatus.ACTIVE });
    applyProfile(member, input);
    announceProfile(this.em, member);
    announceCustomerCreated(this.em, member, false);
    await this.em.flush();
    return member;
  }

  /** Copies the profile the mini-program read from the chat app; a new member becomes CHATAPP_INFO_SYNCED. */
  async syncFromChatapp(id: string, input: ChatappProfileInput): Promise<Member> {
    const member = await this.get(id);
    const before = customerProfileOf(member);
    const { gender, province, city, country, ...profile } = input;
    applyProfile(member, profile);
    if (gender !== undefined && gender !== null) member.gender = CHATAPP_GENDER[gender];
    if (province || city || country) {
      member.address = {
        ...member.address,
        ...(province ? { province } : {}),
        ...(city ? { district: city } : {}),
        ...(country ? { country } : {}),
      };
    }
    if (member.status === MemberStatus.PENDING) member.status = MemberStatus.CHATAPP_INFO_SYNCED;
    announceProfile(this.em, member);
    announceCustomerUpdated(this.em, before, member);
    await this.em.flush();
    return member;
  }

  async qrCode(id: string): Promise<MemberQrCode> {
    const member = await this.get(id);
    const qrCodeUrl = await QRCode.toDataURL(`loyalty:member:${member.id}`, { errorCorrectionLevel: 'M', margin: 2, width: 320 });
    return { memberId: member.id, qrCodeUrl };
  }
}

/**
 * Announces a member's profile with the change that writes it (same flush, same transaction): other
 * domains keep what they need of it (the cluster domain: the birth month, for segments).
 */
export function announceProfile(em: EntityManager, member: Member): void {
  recordEvent(
    em,
    AUTH.events.memberProfileChanged,
    { memberId: member.id, birthDate: member.birthDay, status: member.status, updatedAt: new Date().toISOString() },
    { aggregateId: member.id },
  );
}

/** Absent fields stay as they are; an explicit null clears a field (status cannot be cleared). */
function applyProfile(member: Member, input: MemberProfileInput | CreateMemberDirectInput): void {
  const { birthDate, address, ...fields } = input;
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined || (value === null && key === 'status')) continue;
    (member as unknown as Record<string, unknown>)[key] = value;
  }
  if (birthDate !== undefined) member.birthDay = birthDate ? birthDate.slice(0, 10) : null;
  if (address !== undefined) member.address = address ? withoutEmpty({ ...member.address, ...address }) : null;
}

function withoutEmpty<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined && field !== null)) as T;
}

/** Members on one of the tiers, by auth's tier projection (a subquery: a large tier costs no id list); those promised the entry tier when it is one. */
function onTiers({ tierIds, entryTier }: TierFilter): Record<string, unknown> {
  if (tierIds.length === 0) return { id: { $in: [] } };
  const ids = entryTier ? [...tierIds, ENTRY_TIER_PROMISE] : tierIds;
  return { [raw((alias: string) => `${alias}.id in (select member_id from auth.member_tier where tier_id = any(?::text[]))`, [arrayLiteral(ids)])]: true };
}

/** The `createdAt` bounds of a member list: a bare date as `to` covers its whole day (UTC). */
function createdRange(from?: string, to?: string): { $gte?: Date; $lte?: Date } | undefined {
  if (!from && !to) return undefined;
  const dayOnly = /^\d{4}-\d{2}-\d{2}$/;
  return {
    ...(from ? { $gte: new Date(from) } : {}),
    ...(to ? { $lte: dayOnly.test(to) ? new Date(new Date(`${to}T00:00:00.000Z`).getTime() + 86_400_000 - 1) : new Date(to) } : {}),
  };
}
