import { EntityManager } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { readRowsByIds } from '../../core/db/coalesced-read';
import { authModule } from '../../subgraphs/auth/module';
import { Role } from '../../subgraphs/auth/entities/role';
import { Staff, StaffStatus } from '../../subgraphs/auth/entities/staff';
import { useModuleDatabase } from '../support/module-database';

const db = useModuleDatabase(authModule);

/** Which statement answered a row: its server process and its start, the same for every row of one statement. */
interface StaffRow {
  id: string;
  email: string;
  statement: string;
}

/** Staff by id, each row naming its statement; it waits for a shared advisory lock first, so that a test can hold a statement open. */
const STAFF_BY_IDS = `select s.id, s.email, pg_backend_pid() || ' ' || statement_timestamp() as statement
   from auth.staff s, (select pg_advisory_xact_lock_shared(4242)) as held
  where s.id = any($1::uuid[])`;
/** The same read written again: another read, which is never answered by this one's statements. */
const OTHER_STAFF_BY_IDS = `select s.id, s.email, pg_backend_pid() || ' ' || now() as statement from auth.staff s where s.id = any($1::uuid[])`;

const read = (ids: string[], em: EntityManager = db.em()) => readRowsByIds<StaffRow>(em, STAFF_BY_IDS, ids, 'id');

async function seedStaff(em: EntityManager = db.em()): Promise<Staff> {
  const role = await em.findOneOrFail(Role, { key: 'admin' });
  const staff = em.create(Staff, { email: `coalesced-${randomUUID()}@example.com`, firstname: 'Ada', lastname: 'Lovelace', role, status: StaffStatus.ACTIVE, phoneNumber: '+66800000000' });
  await em.flush();
  return staff;
}

describe('reads by ids asked at the same time', () => {
  it('answer each read its own rows, the reads that waited for the first statement in one second statement', async () => {
    const staff = await Promise.all(Array.from({ length: 30 }, () => seedStaff()));
    const answers = await Promise.all(staff.map((member, index) => read(index % 3 === 0 ? [member.id, member.id.toUpperCase()] : [member.id])));
    answers.forEach((rows, index) => expect(rows.map((row) => row.email)).toEqual([staff[index].email]));
    const statements = answers.map(([row]) => row.statement);
    expect(new Set(statements).size).toBe(2);
    expect(statements.filter((statement) => statement === statements[0])).toHaveLength(1);
  });

  it('keep two different reads apart: each goes to its own statement', async () => {
    const [first, second] = [await seedStaff(), await seedStaff()];
    const [mine, other] = await Promise.all([read([first.id]), readRowsByIds<StaffRow>(db.em(), OTHER_STAFF_BY_IDS, [second.id], 'id')]);
    expect(mine.map((row) => row.id)).toEqual([first.id]);
    expect(other.map((row) => row.id)).toEqual([second.id]);
  });

  it('find nothing for an id that is not a record id or names no row, and still answer the reads beside them', async () => {
    const staff = await seedStaff();
    const [notAnId, unknown, known] = await Promise.all([read(['not-a-uuid', "'; drop table auth.staff; --"]), read([randomUUID()]), read([staff.id, 'nul\u0000'])]);
    expect(notAnId).toEqual([]);
    expect(unknown).toEqual([]);
    expect(known.map((row) => row.id)).toEqual([staff.id]);
  });

  it('see a row committed while an earlier statement of the same read still ran: a read asked later waits for the next statement', async () => {
    const holder = new Client({ connectionString: databaseUrl() });
    await holder.connect();
    try {
      await holder.query('select pg_advisory_lock(4242)');
      const earlier = await seedStaff();
      const running = read([earlier.id]);
      await waitForLockWaiter(holder);
      const committed = await seedStaff();
      const later = read([committed.id]);
      await holder.query('select pg_advisory_unlock(4242)');
      const [[first], [second]] = await Promise.all([running, later]);
      expect(first.id).toBe(earlier.id);
      expect(second.id).toBe(committed.id);
      expect(second.statement).not.toBe(first.statement);
    } finally {
      await holder.end();
    }
  });

  it('run inside a transaction on its connection: a row it wrote and has not committed', async () => {
    await db.em().transactional(async (em) => {
      const staff = await seedStaff(em);
      expect((await read([staff.id], em)).map((row) => row.id)).toEqual([staff.id]);
      expect(await read([staff.id])).toEqual([]);
    });
  });

  it('fail together when their statement fails (a read whose own row is fine too), and the next statement runs for the reads after them', async () => {
    const staff = await seedStaff();
    // Fails on a row it finds: the first read's statement alone, then the two that waited for it together.
    const failing = `select s.id, 1 / (extract(year from now())::int - extract(year from now())::int) as statement from auth.staff s where s.id = any($1::uuid[])`;
    const readFailing = (id: string) => readRowsByIds<StaffRow>(db.em(), failing, [id], 'id');
    const results = await Promise.allSettled([readFailing(staff.id), readFailing(randomUUID()), readFailing(staff.id)]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect((results[1] as PromiseRejectedResult).reason).toMatchObject({ code: '22012' });
    expect(await readFailing(randomUUID())).toEqual([]);
  });
});

function databaseUrl(): string {
  return db.orm.config.getClientUrl();
}

/** Resolves once a statement waits for the advisory lock `holder` holds. */
async function waitForLockWaiter(holder: Client): Promise<void> {
  for (;;) {
    const { rows } = await holder.query(`select 1 from pg_locks where locktype = 'advisory' and objid = 4242 and not granted`);
    if (rows.length > 0) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
}
