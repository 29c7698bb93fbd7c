import { createScratchDatabase, runDatabaseName } from './scratch-database';
import { PLATFORM_START_TIMEOUT_MS, startTestPlatform, TestMember, TestPlatform, TestStaff } from './test-platform';

export type StaffRole = 'admin' | 'marketing' | 'tenant';

export interface PlatformFixtureOptions {
  /** Settings of this platform (over the test defaults); a function when they are known only in an earlier beforeAll. */
  env?: Record<string, string> | (() => Record<string, string>);
  /** Staff members to create and log in, one per role. */
  staff?: StaffRole[];
  /** How many members to log in through the chat-app flow (`member` is the first). */
  members?: number;
  /**
   * Every file's first platform runs on a database of its own; a platform started inside a describe
   * shares the file's, unless this asks for another (for a test that must see no rows of the others).
   */
  ownDatabase?: boolean;
  /** Clean-up that still needs the platform, run before it closes. */
  beforeClose?: (platform: TestPlatform) => Promise<unknown>;
}

export interface PlatformFixture {
  platform: TestPlatform;
  admin: TestStaff;
  marketing: TestStaff;
  tenant: TestStaff;
  member: TestMember;
  members: TestMember[];
}

/**
 * A stand-in for a value made in a beforeAll: once bound, every property read goes to that value, so
 * a test file may take it at load time (`const { platform } = usePlatform()`) and use it in its tests.
 */
function lateBound<T extends object>(unbound: string): { handle: T; bind: (value: T) => void } {
  let bound: T | undefined;
  const value = (): T => {
    if (!bound) throw new Error(unbound);
    return bound;
  };
  const handle = new Proxy({} as T, {
    get: (_target, key) => Reflect.get(value(), key),
    has: (_target, key) => Reflect.has(value(), key),
    ownKeys: () => Reflect.ownKeys(value()),
    getOwnPropertyDescriptor: (_target, key) => Reflect.getOwnPropertyDescriptor(value(), key),
  });
  return { handle, bind: (value) => void (bound = value) };
}

/**
 * The setup most test files share: registers a beforeAll that starts the whole platform and logs in
 * the staff and members asked for (all at once), and an afterAll that closes it. Returns their
 * handles, usable inside tests and in hooks declared after this call.
 */
export function usePlatform(options: PlatformFixtureOptions = {}): PlatformFixture {
  const notYet = (what: string) => `${what} is used before usePlatform's beforeAll ran`;
  const platform = lateBound<TestPlatform>(notYet('the platform'));
  const staff = Object.fromEntries(
    (['admin', 'marketing', 'tenant'] as const).map((role) => [
      role,
      lateBound<TestStaff>(options.staff?.includes(role) ? notYet(`the ${role} staff member`) : `usePlatform was not asked for a ${role} staff member`),
    ]),
  ) as Record<StaffRole, ReturnType<typeof lateBound<TestStaff>>>;
  const members = Array.from({ length: options.members ?? 0 }, (_, index) => lateBound<TestMember>(notYet(`member ${index + 1}`)));
  const firstMember = members[0] ?? lateBound<TestMember>('usePlatform was not asked for a member');

  let started: TestPlatform | undefined;
  let outerDatabaseUrl: string | undefined;
  beforeAll(async () => {
    const env = typeof options.env === 'function' ? options.env() : { ...options.env };
    outerDatabaseUrl = process.env.TEST_DATABASE_URL;
    const fileHasOne = outerDatabaseUrl !== process.env.TEST_SERVER_URL;
    // Left for the global teardown to drop: the file's own connections to it close in later afterAll hooks.
    const databaseUrl = fileHasOne && !options.ownDatabase ? outerDatabaseUrl! : (await createScratchDatabase(`${runDatabaseName()}_file`, { migrated: true })).url;
    // What the file opens itself (its own ORM or job queue client, a second platform) goes there too.
    process.env.TEST_DATABASE_URL = env.DATABASE_URL = databaseUrl;
    started = await startTestPlatform(env);
    platform.bind(started);
    const running = started;
    await Promise.all([
      ...(options.staff ?? []).map(async (role) => staff[role].bind(await running.createStaff(role))),
      ...members.map(async (member) => member.bind(await running.loginMember())),
    ]);
  }, PLATFORM_START_TIMEOUT_MS);
  afterAll(async () => {
    try {
      if (started) await options.beforeClose?.(started);
    } finally {
      await started?.close();
      process.env.TEST_DATABASE_URL = outerDatabaseUrl;
    }
  }, PLATFORM_START_TIMEOUT_MS);

  return {
    platform: platform.handle,
    admin: staff.admin.handle,
    marketing: staff.marketing.handle,
    tenant: staff.tenant.handle,
    member: firstMember.handle,
    members: members.map((member) => member.handle),
  };
}
