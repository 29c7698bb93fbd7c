import { EntityManager } from '@mikro-orm/postgresql';
import { grantsAll, Principal } from '../../../core/auth/principal';
import { recordRevocation, revocationSubject } from '../../../core/auth/revocations';
import { badRequest, conflict, forbidden, notFound, unauthenticated } from '../../../core/errors';
import { offsetOf, Page, pageOf } from '../../../core/pagination';
import { RowLookup } from '../../../core/db/row-lookup';
import { INCLUDING_DELETED } from '../../../core/db/soft-deletable';
import { containsAny } from '../../../core/search';
import { AuthDeps } from '../auth-deps';
import { Role } from '../entities/role';
import { Staff, StaffStatus } from '../entities/staff';
import { CreateStaffInput, StaffListArgs, UpdateStaffInput } from '../types/staff.inputs';
import { TokenPair } from '../types/session.types';
import { revokeKeysOf } from './api-key.service';
import { PasswordResetService } from './password-reset.service';
import { RoleService } from './role.service';
import { SessionService, staffPrincipal } from './session.service';

/** A live staff member by id: every authenticated staff request reads one. */
const liveStaffById = new RowLookup(Staff, 'id', { live: true });

export class StaffService {
  constructor(
    private readonly em: EntityManager,
    private readonly deps: AuthDeps,
  ) {}

  /** Unknown e-mails cost the same hashing time as known ones. A hash with older parameters is upgraded. */
  async login(email: string, password: string): Promise<TokenPair> {
    const staff = await this.authenticate(email, password);
    return new SessionService(this.em, this.deps).issue(staffPrincipal(staff));
  }

  /** The staff password check of login (also the OAuth sign-in page's): the active staff member, or 401. */
  async authenticate(email: string, password: string): Promise<Staff> {
    const staff = await this.findLiveByEmail(email);
    const matches = await this.deps.passwords.verify(password, staff?.passwordHash);
    if (!staff || !matches) throw unauthenticated('Invalid email or password');
    if (staff.status !== StaffStatus.ACTIVE) throw unauthenticated('Account is not active');
    await this.rehashIfWeak(staff, password);
    return staff;
  }

  async list(args: StaffListArgs): Promise<Page<Staff>> {
    const where: Record<string, unknown> = {};
    if (args.storeId) where.storeId = args.storeId;
    if (args.roleId) where.role = args.roleId;
    if (args.status) where.status = args.status;
    if (args.search) Object.assign(where, containsAny(['firstname', 'lastname', 'email'], args.search));
    const [items, total] = await this.em.findAndCount(Staff, where, {
      populate: ['role'],
      orderBy: { createdAt: 'desc', id: 'asc' },
      limit: args.limit,
      offset: offsetOf(args),
    });
    return pageOf(items, total, args);
  }

  async get(id: string): Promise<Staff> {
    const staff = await liveStaffById.find(this.em, id);
    if (!staff) throw notFound('Staff', id);
    return staff;
  }

  /** The live staff for an answer only: not tracked by the unit of work, so nothing to flush. */
  async view(id: string): Promise<Staff> {
    const staff = await liveStaffById.view(this.em, id);
    if (!staff) throw notFound('Staff', id);
    return staff;
  }

  async create(input: CreateStaffInput, actor: Principal): Promise<Staff> {
    const role = await new RoleService(this.em).require(input.roleId);
    await this.assertActorCovers(actor, role);
    await this.assertEmailFree(input.email);
    const staff = this.em.create(Staff, {
      email: input.email.toLowerCase(),
      firstname: input.firstname,
      lastname: input.lastname,
      phoneNumber: input.phoneNumber ?? null,
      storeId: input.storeId ?? null,
      role,
      ...(input.status ? { status: input.status } : {}),
      ...(input.locale ? { locale: input.locale } : {}),
    });
    await this.em.flush();
    if (staff.status === StaffStatus.WAIT_FOR_FIRST_ACTIVE) {
      // The staff member exists either way; an admin can send the code again with request-reset-password.
      await new PasswordResetService(this.em, this.deps)
        .sendInvitation(staff)
        .catch((error) => this.deps.logger.error({ err: error, staffId: staff.id }, 'invitation could not be sent'));
    }
    return staff;
  }

  /**
   * A new role revokes, in the same transaction, the keys the staff member created that it no longer
   * covers, and the access tokens they hold (their next refresh carries the new role).
   */
  async update(id: string, input: UpdateStaffInput, actor: Principal): Promise<Staff> {
    const staff = await this.get(id);
    const role = await new RoleService(this.em).require(input.roleId);
    await this.em.populate(staff, ['role']);
    await this.assertActorCovers(actor, staff.role, role);
    if (input.email.toLowerCase() !== staff.email) await this.assertEmailFree(input.email);
    const roleChanged = role.id !== staff.role.id;
    Object.assign(staff, {
      email: input.email.toLowerCase(),
      firstname: input.firstname,
      lastname: input.lastname,
      role,
      // Absent keeps the current value; an explicit null clears it.
      phoneNumber: input.phoneNumber === undefined ? staff.phoneNumber : input.phoneNumber,
      storeId: input.storeId === undefined ? staff.storeId : input.storeId,
    });
    await this.em.transactional(async (em) => {
      await em.flush();
      if (!roleChanged) return;
      await revokeKeysOf(em, staff.id, role.permissions);
      await recordRevocation(em, revocationSubject.principal(staff.id));
    });
    return staff;
  }

  /** Deleting a staff member ends their sessions and revokes the API keys they created, in one transaction. */
  async softDelete(id: string, actor: Principal): Promise<Staff> {
    if (id === actor.id) throw badRequest('You cannot delete your own account', 'id');
    const staff = await this.get(id);
    await this.em.populate(staff, ['role']);
    await this.assertActorCovers(actor, staff.role);
    await this.em.transactional(async (em) => {
      staff.deletedAt = new Date();
      await em.flush();
      await revokeKeysOf(em, staff.id);
      await new SessionService(em, this.deps).revokeAllOf('staff', staff.id);
    });
    return staff;
  }

  /** BOOTSTRAP_ADMIN_*: the first start creates an active admin when no staff exists yet (deleted staff count). */
  async bootstrapAdmin(email: string, password: string): Promise<Staff | undefined> {
    if ((await this.em.count(Staff, {}, INCLUDING_DELETED)) > 0) return undefined;
    const passwordHash = await this.deps.passwords.hash(password);
    // Instances starting together (workers, replicas) take turns: only the first finds no staff.
    return this.em.transactional(async (em) => {
      await em.execute(`select pg_advisory_xact_lock(hashtext('auth:bootstrap-admin'))`);
      if ((await em.count(Staff, {}, INCLUDING_DELETED)) > 0) return undefined;
      const role = await em.findOneOrFail(Role, { key: 'admin' });
      return em.create(Staff, { email: email.toLowerCase(), firstname: 'Admin', lastname: 'Bootstrap', role, status: StaffStatus.ACTIVE, passwordHash });
    });
  }

  /**
   * Replaces a hash made with weaker parameters than the configured ones. Only the hash that was
   * verified is replaced, so a password reset committed meanwhile is never undone.
   */
  private async rehashIfWeak(staff: Staff, password: string): Promise<void> {
    const current = staff.passwordHash!;
    if (!this.deps.passwords.needsRehash(current)) return;
    await this.em.nativeUpdate(Staff, { id: staff.id, passwordHash: current }, { passwordHash: await this.deps.passwords.hash(password) });
  }

  findLiveByEmail(email: string): Promise<Staff | null> {
    return this.em.findOne(Staff, { email: email.toLowerCase() }, { populate: ['role'] });
  }

  /**
   * Whoever manages staff can give, and act on, no role stronger than their own current role (read from
   * the database, not from the possibly older token), as for API keys: 403 otherwise. A staff member
   * cannot raise anyone, themselves included, above themselves, nor take over a stronger account.
   */
  private async assertActorCovers(actor: Principal, ...roles: Role[]): Promise<void> {
    const own = actor.kind === 'staff' ? await this.em.findOne(Staff, { id: actor.id }, { populate: ['role'] }) : null;
    const held = own?.role.permissions ?? actor.permissions;
    if (roles.some((role) => !grantsAll(held, role.permissions))) throw forbidden('The role grants permissions your own role does not have');
  }

  private async assertEmailFree(email: string): Promise<void> {
    if (await this.findLiveByEmail(email)) throw conflict('A staff member with this email already exists', 'email');
  }
}
