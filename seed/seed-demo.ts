import { seedBookings } from './bookings';
import { seedCampaign } from './campaign';
import { forEachLimit } from './concurrency';
import { SeedContext } from './context';
import { utcDayAfter } from './days';
import { existingMembers, SeededMember, seedMember } from './members';
import { seedNotifications } from './notifications';
import { demoPerson } from './people';
import { memberPlan } from './plan';
import { setUpProgram } from './program-setup';
import { progress } from './progress';
import { seedSegments } from './segments';
import { openSession } from './session';
import { Tally } from './tally';
import { seedWebhook } from './webhook';

export interface DemoOptions {
  /** The gateway's GraphQL endpoint. */
  graphqlUrl: string;
  /** An admin's sign-in. */
  adminEmail: string;
  adminPassword: string;
  /** How many members the demo has. */
  members: number;
  /** Where the demo webhook sends every event. */
  webhookUrl: string;
  /** Members seeded at once. */
  concurrency: number;
  log: (line: string) => void;
}

/** Members 1..count of the demo, each seeded `concurrency` at a time; answered in order. */
async function seedMembers(context: SeedContext, options: DemoOptions, catalogs: Map<string, string>, today: Date): Promise<SeededMember[]> {
  const known = await existingMembers(context.client);
  const people = Array.from({ length: options.members }, (_, index) => demoPerson(index + 1));
  const seeded: SeededMember[] = [];
  const tick = progress(context.log, 'members', people.length);
  await forEachLimit(people, options.concurrency, async (person) => {
    seeded.push(await seedMember(context, person, memberPlan(person, today), known.get(person.email), catalogs));
    tick();
  });
  return seeded.sort((a, b) => a.person.index - b.person.index);
}

/**
 * Fills a running platform with the demo program through its GraphQL API, as the admin UI would:
 * everything is checked before it is made (by name, e-mail, external id, ...), so a second run adds
 * nothing. Answers what it created and what it found.
 */
export async function seedDemo(options: DemoOptions): Promise<Tally> {
  const session = await openSession(options.graphqlUrl, options.adminEmail, options.adminPassword);
  try {
    const context: SeedContext = { client: session.client, staff: session.staff, tally: new Tally(), log: options.log };
    const today = utcDayAfter(new Date(), 0);
    const program = await setUpProgram(context);
    options.log('program: tiers, badges, rewards and catalogs in place');
    const members = await seedMembers(context, options, program.catalogs, today);
    const newsletter = await seedSegments(context, program.tiers, members);
    await seedCampaign(context, members);
    await seedBookings(context, members, today);
    await seedNotifications(context, newsletter, members);
    await seedWebhook(context, options.webhookUrl);
    return context.tally;
  } finally {
    await session.close();
  }
}
