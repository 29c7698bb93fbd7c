import { CriticalityLevel, diff } from '@graphql-inspector/core';
import { GraphQLSchema } from 'graphql';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { apiSchemaOf } from '../core/supergraph';
import { openApiChanges, SchemaChange } from './openapi-diff';

/**
 * `npm run schema:diff [-- --base <rev>]` (CI): the breaking, dangerous and safe changes of
 * schema/supergraph.graphql and schema/openapi-v1.json in the working tree since a git revision, by
 * default the one CHANGELOG.md records for its latest released version. Fails when a breaking change
 * is not recorded: the `## [Unreleased]` section of CHANGELOG.md must name its coordinate in
 * backticks (`Query.customer`, `GET /api/v1/customers`), as this prints it.
 */
const ROOT = join(__dirname, '..');
const FILES = { supergraph: 'schema/supergraph.graphql', openApi: 'schema/openapi-v1.json' };

const LEVELS: Record<CriticalityLevel, SchemaChange['level']> = {
  [CriticalityLevel.Breaking]: 'breaking',
  [CriticalityLevel.Dangerous]: 'dangerous',
  [CriticalityLevel.NonBreaking]: 'safe',
};

/** GraphQL Inspector's changes between two schemas; each coordinate is the schema coordinate it names. */
export async function graphqlChanges(before: GraphQLSchema, after: GraphQLSchema): Promise<SchemaChange[]> {
  return (await diff(before, after)).map((change) => ({ level: LEVELS[change.criticality.level], coordinate: change.path ?? change.type, message: change.message }));
}

/** The changes clients see between two supergraphs: those of their API schemas (federation machinery and @inaccessible removed). */
export function supergraphChanges(beforeSdl: string, afterSdl: string): Promise<SchemaChange[]> {
  return graphqlChanges(apiSchemaOf(beforeSdl), apiSchemaOf(afterSdl));
}

/** The text of a keep-a-changelog file's `## [Unreleased]` section (empty when it has none). */
export function unreleasedSection(changelog: string): string {
  return /^## \[Unreleased\][^\n]*\n([\s\S]*?)(?=^## |(?![\s\S]))/im.exec(changelog)?.[1] ?? '';
}

/** The latest released version (the first `## [x.y.z]` heading) and the `Git revision: `<sha>`` line of its section. */
export function releasedRevision(changelog: string): { version: string; revision: string } {
  const match = /^## \[(\d+\.\d+\.\d+)\][^\n]*\n(?:(?!^## )[\s\S])*?^Git revision: `([0-9a-f]{7,40})`/m.exec(changelog);
  if (!match) throw new Error('CHANGELOG.md: the latest released version has no "Git revision: `<sha>`" line');
  return { version: match[1], revision: match[2] };
}

/** The breaking changes whose coordinate the Unreleased section does not name in backticks. */
export function unrecordedBreakingChanges(changes: SchemaChange[], changelog: string): SchemaChange[] {
  const unreleased = unreleasedSection(changelog);
  return changes.filter((change) => change.level === 'breaking' && !unreleased.includes(`\`${change.coordinate}\``));
}

/** The report: breaking and dangerous changes one a line, the safe ones counted. */
export function reportOf(changes: SchemaChange[], unrecorded: SchemaChange[]): string {
  const line = (change: SchemaChange) => `  \`${change.coordinate}\` ${change.message}${unrecorded.includes(change) ? '  [not in CHANGELOG.md]' : ''}`;
  const section = (title: string, level: SchemaChange['level']) => {
    const listed = changes.filter((change) => change.level === level);
    return [`${title} (${listed.length})${listed.length ? ':' : ''}`, ...listed.map(line)];
  };
  return [...section('Breaking', 'breaking'), ...section('Dangerous', 'dangerous'), `Safe: ${changes.filter((change) => change.level === 'safe').length}`].join('\n');
}

/** The supergraph's changes, then the v1 OpenAPI description's. */
async function schemaChanges(before: { supergraph: string; openApi: string }, after: { supergraph: string; openApi: string }): Promise<SchemaChange[]> {
  return [...(await supergraphChanges(before.supergraph, after.supergraph)), ...openApiChanges(JSON.parse(before.openApi), JSON.parse(after.openApi))];
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({ options: { base: { type: 'string' } }, allowPositionals: true });
  const changelog = readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8');
  const base = values.base ?? positionals[0] ?? releasedRevision(changelog).revision;
  const atBase = (file: string) => execFileSync('git', ['show', `${base}:${file}`], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const inTree = (file: string) => readFileSync(join(ROOT, file), 'utf8');
  const changes = await schemaChanges(
    { supergraph: atBase(FILES.supergraph), openApi: atBase(FILES.openApi) },
    { supergraph: inTree(FILES.supergraph), openApi: inTree(FILES.openApi) },
  );
  const unrecorded = unrecordedBreakingChanges(changes, changelog);
  console.log(`${FILES.supergraph} and ${FILES.openApi} since ${base}:\n${reportOf(changes, unrecorded)}`);
  if (unrecorded.length > 0) {
    console.error(`\n${unrecorded.length} breaking change(s) not recorded: name each coordinate in backticks under ## [Unreleased] in CHANGELOG.md (### Removed or ### Changed).`);
    process.exitCode = 1;
  }
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
