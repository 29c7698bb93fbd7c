import { buildSchema } from 'graphql';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readSupergraphSdl } from '../../core/supergraph';
import { graphqlChanges, releasedRevision, supergraphChanges, unrecordedBreakingChanges, unreleasedSection } from '../../schema/diff';
import { openApiChanges, SchemaChange } from '../../schema/openapi-diff';

const ROOT = join(__dirname, '..', '..');
const listed = (changes: SchemaChange[], level: SchemaChange['level']) => changes.filter((change) => change.level === level).map((change) => `${change.coordinate} ${change.message}`);

/** A small schema in the generator's style: each test changes one thing in a copy. */
const SDL = `
  type Query { member(id: ID!): Member, members(first: Int): [Member!]! }
  type Member { id: ID!, name: String, tier: Tier! }
  enum Tier { SILVER, GOLD }
  input CreateMemberInput { name: String }
  type Mutation { createMember(input: CreateMemberInput!): Member! }
`;

describe('GraphQL changes', () => {
  const changesTo = (after: string) => graphqlChanges(buildSchema(SDL), buildSchema(after));

  it('reports a removed field as breaking, at its coordinate', async () => {
    expect(listed(await changesTo(SDL.replace(', tier: Tier!', '')), 'breaking')).toEqual(["Member.tier Field 'tier' was removed from object type 'Member'"]);
  });

  it('reports a newly required input field and a newly required argument as breaking', async () => {
    const required = await changesTo(SDL.replace('input CreateMemberInput { name: String }', 'input CreateMemberInput { name: String, email: String! }').replace('members(first: Int)', 'members(first: Int, segment: ID!)'));
    expect(listed(required, 'breaking')).toEqual([
      "Query.members.segment Argument 'segment: ID!' added to field 'Query.members'",
      "CreateMemberInput.email Input field 'email' of type 'String!' was added to input object type 'CreateMemberInput'",
    ]);
    const nowRequired = await changesTo(SDL.replace('input CreateMemberInput { name: String }', 'input CreateMemberInput { name: String! }'));
    expect(listed(nowRequired, 'breaking')).toEqual(["CreateMemberInput.name Input field 'CreateMemberInput.name' changed type from 'String' to 'String!'"]);
  });

  it('reports an added optional field as safe and an added enum value as dangerous', async () => {
    const changes = await changesTo(SDL.replace('name: String,', 'name: String, nickname: String,').replace('SILVER, GOLD', 'SILVER, GOLD, PLATINUM'));
    expect(listed(changes, 'breaking')).toEqual([]);
    expect(listed(changes, 'dangerous')).toEqual(["Tier.PLATINUM Enum value 'PLATINUM' was added to enum 'Tier'"]);
    expect(listed(changes, 'safe')).toEqual(["Member.nickname Field 'nickname' was added to object type 'Member'"]);
  });

  describe('on the real supergraph (its API schema: the federation directives are not compared)', () => {
    const supergraph = readSupergraphSdl();
    const changed = (from: RegExp, to: string) => {
      const sdl = supergraph.replace(from, to);
      expect(sdl).not.toBe(supergraph);
      return sdl;
    };

    it('finds no change between the file and itself', async () => {
      expect(await supergraphChanges(supergraph, supergraph)).toEqual([]);
    });

    it('reports a removed field and a newly required input field as breaking', async () => {
      const removed = changed(/(type AnalyticsPeriod\s+@join__type\(graph: ANALYTICS\)\s*\{[^}]*?)\n\s*groupBy: String\n/, '$1\n');
      expect(listed(await supergraphChanges(supergraph, removed), 'breaking')).toEqual(["AnalyticsPeriod.groupBy Field 'groupBy' was removed from object type 'AnalyticsPeriod'"]);
      const required = changed(/(input AssignTierInput\s+@join__type\(graph: CLUSTER\)\s*\{)/, '$1\n  reason: String!');
      expect(listed(await supergraphChanges(supergraph, required), 'breaking')).toEqual(["AssignTierInput.reason Input field 'reason' of type 'String!' was added to input object type 'AssignTierInput'"]);
    });
  });
});

/** A small v1 description in the generator's style: nullable fields as `anyOf` with null, errors as `allOf`, components by `$ref`. */
const json = (schema: object) => ({ 'application/json': { schema } });
function description(): any {
  const thing = { $ref: '#/components/schemas/Thing' };
  return {
    openapi: '3.1.0',
    info: { title: 'fixture', version: '1.0.0' },
    paths: {
      '/api/v1/things': {
        get: {
          parameters: [{ name: 'status', in: 'query', schema: { type: 'string', enum: ['open', 'closed'] } }],
          responses: { '200': { description: 'ok', content: json({ type: 'object', properties: { data: { type: 'array', items: thing } }, required: ['data'] }) } },
        },
        post: {
          requestBody: {
            required: true,
            content: json({
              type: 'object',
              properties: { name: { type: 'string', maxLength: 100 }, note: { anyOf: [{ type: 'string' }, { type: 'null' }] } },
              required: ['name'],
              additionalProperties: false,
            }),
          },
          responses: {
            '201': { description: 'created', content: json({ type: 'object', properties: { data: thing }, required: ['data'] }) },
            '409': { description: 'conflict', content: json({ allOf: [{ $ref: '#/components/schemas/Error' }, { type: 'object', properties: { error: { type: 'object', properties: { code: { enum: ['DUPLICATE'] } } } } }] }) },
          },
        },
      },
      '/api/v1/things/{id}': {
        get: { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: { '200': { description: 'ok', content: json({ type: 'object', properties: { data: thing } }) } } },
        delete: { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: { '204': { description: 'deleted' } } },
      },
    },
    components: {
      schemas: {
        Thing: {
          type: 'object',
          properties: { id: { type: 'string' }, kind: { type: 'string', enum: ['big', 'small'] }, count: { type: 'integer' }, note: { anyOf: [{ type: 'string' }, { type: 'null' }] } },
          required: ['id', 'kind', 'count'],
        },
        Error: { type: 'object', properties: { error: { type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' } }, required: ['code', 'message'] } }, required: ['error'] },
      },
    },
  };
}

describe('OpenAPI changes', () => {
  const changesAfter = (change: (document: any) => void) => {
    const after = description();
    change(after);
    return openApiChanges(description(), after);
  };

  it('finds no change between a description and itself, the real one included', () => {
    expect(openApiChanges(description(), description())).toEqual([]);
    const real = JSON.parse(readFileSync(join(ROOT, 'schema', 'openapi-v1.json'), 'utf8'));
    expect(openApiChanges(real, structuredClone(real))).toEqual([]);
  });

  it('reports a removed path and a removed operation as breaking, one change per operation', () => {
    expect(listed(changesAfter((document) => delete document.paths['/api/v1/things/{id}']), 'breaking')).toEqual([
      'GET /api/v1/things/{id} operation removed',
      'DELETE /api/v1/things/{id} operation removed',
    ]);
    expect(listed(changesAfter((document) => delete document.paths['/api/v1/things'].post), 'breaking')).toEqual(['POST /api/v1/things operation removed']);
  });

  it('follows $ref into components: a field removed from a response schema breaks every operation returning it', () => {
    expect(listed(changesAfter((document) => delete document.components.schemas.Thing.properties.kind), 'breaking')).toEqual([
      'GET /api/v1/things response 200 (application/json) /data[]/kind: property removed',
      'POST /api/v1/things response 201 (application/json) /data/kind: property removed',
      'GET /api/v1/things/{id} response 200 (application/json) /data/kind: property removed',
    ]);
  });

  it('merges allOf: a field removed from the shared Error component breaks the error response', () => {
    expect(listed(changesAfter((document) => delete document.components.schemas.Error.properties.error.properties.message), 'breaking')).toEqual([
      'POST /api/v1/things response 409 (application/json) /error/message: property removed',
    ]);
  });

  it('reports a removed enum value of a request as breaking; in a response, an added one is dangerous and a removed one safe', () => {
    expect(listed(changesAfter((document) => document.paths['/api/v1/things'].get.parameters[0].schema.enum.pop()), 'breaking')).toEqual(['GET /api/v1/things parameter query status: value "closed" removed']);
    const responseValues = changesAfter((document) => (document.components.schemas.Thing.properties.kind.enum = ['big', 'huge']));
    expect(listed(responseValues, 'breaking')).toEqual([]);
    expect(listed(responseValues, 'dangerous')).toEqual([
      'GET /api/v1/things response 200 (application/json) /data[]/kind: value "huge" added',
      'POST /api/v1/things response 201 (application/json) /data/kind: value "huge" added',
      'GET /api/v1/things/{id} response 200 (application/json) /data/kind: value "huge" added',
    ]);
    expect(listed(responseValues, 'safe')).toHaveLength(3);
  });

  it('reports a newly required request field, a required field added and a new required parameter as breaking', () => {
    const body = (document: any) => document.paths['/api/v1/things'].post.requestBody.content['application/json'].schema;
    expect(listed(changesAfter((document) => body(document).required.push('note')), 'breaking')).toEqual(['POST /api/v1/things request body (application/json) /note: now required']);
    expect(listed(changesAfter((document) => {
      body(document).properties.owner = { type: 'string' };
      body(document).required.push('owner');
    }), 'breaking')).toEqual(['POST /api/v1/things request body (application/json) /owner: required property added']);
    expect(listed(changesAfter((document) => document.paths['/api/v1/things'].get.parameters.push({ name: 'owner', in: 'query', required: true, schema: { type: 'string' } })), 'breaking')).toEqual([
      'GET /api/v1/things parameter query owner: required parameter added',
    ]);
  });

  it('reports type changes by direction: a response that may now be null, a request that no longer takes null, a tighter request bound', () => {
    const changes = changesAfter((document) => {
      document.components.schemas.Thing.properties.count = { anyOf: [{ type: 'integer' }, { type: 'null' }] };
      document.paths['/api/v1/things'].post.requestBody.content['application/json'].schema.properties.note = { type: 'string' };
      document.paths['/api/v1/things'].post.requestBody.content['application/json'].schema.properties.name.maxLength = 50;
    });
    expect(listed(changes, 'breaking')).toEqual([
      'GET /api/v1/things response 200 (application/json) /data[]/count: type integer → integer | null',
      'POST /api/v1/things request body (application/json) /name: maxLength 100 → 50',
      'POST /api/v1/things request body (application/json) /note: type null | string → string',
      'POST /api/v1/things response 201 (application/json) /data/count: type integer → integer | null',
      'GET /api/v1/things/{id} response 200 (application/json) /data/count: type integer → integer | null',
    ]);
  });

  it('reports an added optional request field, an added response field and an added operation as safe only', () => {
    const changes = changesAfter((document) => {
      document.paths['/api/v1/things'].post.requestBody.content['application/json'].schema.properties.colour = { type: 'string' };
      document.components.schemas.Thing.properties.colour = { type: 'string' };
      document.paths['/api/v1/things/{id}'].patch = { responses: { '200': { description: 'ok' } } };
    });
    expect(changes.filter((change) => change.level !== 'safe')).toEqual([]);
    expect(listed(changes, 'safe')).toEqual([
      'GET /api/v1/things response 200 (application/json) /data[]/colour: property added',
      'POST /api/v1/things request body (application/json) /colour: optional property added',
      'POST /api/v1/things response 201 (application/json) /data/colour: property added',
      'GET /api/v1/things/{id} response 200 (application/json) /data/colour: property added',
      'PATCH /api/v1/things/{id} operation added',
    ]);
  });
});

describe('recording breaking changes in CHANGELOG.md', () => {
  const changelog = (unreleased: string) => `# Changelog\n\n## [Unreleased]\n\n${unreleased}\n## [0.1.0] - 2026-11-29\n\nGit revision: \`7cf962fcfea615826ed40679e2c490cbfda839c5\`\n\n### Removed\n\n- \`Query.old\` is gone.\n`;
  const removed: SchemaChange = { level: 'breaking', coordinate: 'Member.tier', message: "Field 'tier' was removed" };
  const operation: SchemaChange = { level: 'breaking', coordinate: 'GET /api/v1/things/{id}', message: 'operation removed' };
  const dangerous: SchemaChange = { level: 'dangerous', coordinate: 'Tier.PLATINUM', message: 'added' };

  it('reads the Unreleased section alone, and the revision of the latest release', () => {
    const text = changelog('### Removed\n\n- `Member.tier`: read `Member.level`.\n');
    expect(unreleasedSection(text)).toBe('\n### Removed\n\n- `Member.tier`: read `Member.level`.\n\n');
    expect(releasedRevision(text)).toEqual({ version: '0.1.0', revision: '7cf962fcfea615826ed40679e2c490cbfda839c5' });
    expect(() => releasedRevision('# Changelog\n\n## [Unreleased]\n\n## [0.1.0] - 2026-11-29\n\n### Added\n')).toThrow('no "Git revision');
  });

  it('passes a breaking change whose coordinate the Unreleased section names in backticks, and fails one it does not', () => {
    const recorded = changelog('### Removed\n\n- `Member.tier` and `GET /api/v1/things/{id}`: gone.\n');
    expect(unrecordedBreakingChanges([removed, operation, dangerous], recorded)).toEqual([]);
    expect(unrecordedBreakingChanges([removed, operation, dangerous], changelog('### Removed\n\n- `Member.tier`: gone.\n'))).toEqual([operation]);
    expect(unrecordedBreakingChanges([removed], changelog('### Removed\n\n- Member.tier without backticks.\n'))).toEqual([removed]);
    expect(unrecordedBreakingChanges([{ ...removed, coordinate: 'Query.old' }], changelog(''))).toEqual([{ ...removed, coordinate: 'Query.old' }]);
  });

  it('records in the real CHANGELOG.md a revision of this repository', () => {
    const { revision } = releasedRevision(readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8'));
    expect(execFileSync('git', ['cat-file', '-t', revision], { cwd: ROOT, encoding: 'utf8' }).trim()).toBe('commit');
  });
});

describe('npm run schema:diff', () => {
  const run = (...args: string[]) => spawnSync(process.execPath, ['-r', '@swc-node/register', 'schema/diff.ts', ...args], { cwd: ROOT, encoding: 'utf8' });

  it('passes on the current tree against the revision CHANGELOG.md records', () => {
    const result = run();
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('Breaking (0)');
    expect(result.status).toBe(0);
  });

  it('fails against the revision that added the v1 description, whose breaking changes since are not in CHANGELOG.md', () => {
    const added = execFileSync('git', ['log', '--diff-filter=A', '--format=%H', '--', 'schema/openapi-v1.json'], { cwd: ROOT, encoding: 'utf8' }).trim().split('\n').pop() as string;
    const result = run('--base', added);
    expect(result.stdout).toMatch(/\[not in CHANGELOG\.md\]/);
    expect(result.stderr).toMatch(/breaking change\(s\) not recorded/);
    expect(result.status).toBe(1);
  });
});
