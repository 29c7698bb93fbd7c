import { wrap } from '@mikro-orm/core';
import { RowLookup } from '../../core/db/row-lookup';
import { Role } from '../../subgraphs/auth/entities/role';
import { Staff, StaffStatus } from '../../subgraphs/auth/entities/staff';
import { authModule } from '../../subgraphs/auth/module';
import { useModuleDatabase } from '../support/module-database';

const db = useModuleDatabase(authModule);
const liveStaffById = new RowLookup(Staff, 'id', { live: true });
const anyStaffByEmail = new RowLookup(Staff, 'email');

async function seedStaff(email: string, deletedAt: Date | null = null): Promise<Staff> {
  const em = db.em();
  const role = await em.findOneOrFail(Role, { key: 'admin' });
  const staff = em.create(Staff, { email, firstname: 'Ada', lastname: 'Lovelace', role, status: StaffStatus.ACTIVE, phoneNumber: '+66800000000', deletedAt });
  await em.flush();
  return staff;
}

describe('a row lookup compiled once', () => {
  it('reads the same entity as findOne: every column, its types and the relation as a reference', async () => {
    const seeded = await seedStaff('lookup-a@example.com');
    const found = await liveStaffById.find(db.em(), seeded.id);
    const expected = await db.em().findOneOrFail(Staff, { id: seeded.id });
    expect(found).toBeInstanceOf(Staff);
    expect(wrap(found!).toObject()).toEqual(wrap(expected).toObject());
    expect(found!.createdAt).toBeInstanceOf(Date);
    expect(found!.roleId).toBe(expected.role.id);
  });

  it('joins the unit of work: the entity is managed, a change is flushed, a second read is the same instance', async () => {
    const seeded = await seedStaff('lookup-b@example.com');
    const em = db.em();
    const found = await liveStaffById.find(em, seeded.id);
    expect(await liveStaffById.find(em, seeded.id)).toBe(found);
    found!.firstname = 'Grace';
    await em.flush();
    expect((await db.query('select firstname from auth.staff where id = ?', [seeded.id]))[0].firstname).toBe('Grace');
  });

  it('finds no soft-deleted row when live, and finds it by another unique column when not', async () => {
    const deleted = await seedStaff('lookup-c@example.com', new Date());
    expect(await liveStaffById.find(db.em(), deleted.id)).toBeNull();
    expect((await anyStaffByEmail.find(db.em(), 'lookup-c@example.com'))?.id).toBe(deleted.id);
    expect(await anyStaffByEmail.find(db.em(), 'nobody@example.com')).toBeNull();
  });

  it('views a row without tracking it: the same fields, not in the identity map, a change never flushed', async () => {
    const seeded = await seedStaff('lookup-d@example.com');
    const em = db.em();
    const viewed = await liveStaffById.view(em, seeded.id);
    const expected = await db.em().findOneOrFail(Staff, { id: seeded.id });
    expect(viewed).toBeInstanceOf(Staff);
    expect({ ...viewed, role: undefined }).toEqual({ ...expected, role: undefined });
    expect(viewed!.roleId).toBe(expected.role.id);
    expect(em.getUnitOfWork().getById(Staff.name, seeded.id)).toBeUndefined();
    viewed!.firstname = 'Changed';
    await em.flush();
    expect((await db.query('select firstname from auth.staff where id = ?', [seeded.id]))[0].firstname).toBe('Ada');
    expect(await liveStaffById.view(em, (await seedStaff('lookup-e@example.com', new Date())).id)).toBeNull();
  });

  it('reads inside a transaction on its connection: a row the transaction wrote and has not committed', async () => {
    await db.em().transactional(async (em) => {
      const staff = await seedStaffIn(em, 'lookup-f@example.com');
      expect((await liveStaffById.view(em, staff.id))?.email).toBe('lookup-f@example.com');
      expect(await liveStaffById.view(db.em(), staff.id)).toBeNull();
    });
  });
});

async function seedStaffIn(em: ReturnType<typeof db.em>, email: string): Promise<Staff> {
  const role = await em.findOneOrFail(Role, { key: 'admin' });
  const staff = em.create(Staff, { email, firstname: 'Ada', lastname: 'Lovelace', role, status: StaffStatus.ACTIVE, phoneNumber: '+66800000000' });
  await em.flush();
  return staff;
}
