import { demoOptionsFromEnv } from '../seed/options';
import { seedDemo } from '../seed/seed-demo';

/** `npm run seed:demo`: fills the running platform with the demo program (seed/), then prints what it did. */
async function main(): Promise<void> {
  const started = Date.now();
  const options = demoOptionsFromEnv(process.env, (line) => console.log(line));
  console.log(`Seeding the demo program (${options.members} members) through ${options.graphqlUrl}`);
  const tally = await seedDemo(options);
  console.log(`\nDone in ${((Date.now() - started) / 1000).toFixed(1)} s:\n${tally.lines().join('\n')}`);
  console.log('\nTier upgrades, badges and analytics follow from the purchases\' events: they catch up over the next minutes.');
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
