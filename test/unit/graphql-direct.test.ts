import { buildSchema, execute, GraphQLSchema } from 'graphql';
import { notFound } from '../../core/errors';
import { directExecutor } from '../../core/graphql-direct';
import { createLogger } from '../../core/logger';

const schema: GraphQLSchema = buildSchema(`
  enum Colour { RED, GREEN }
  type Query { hello(name: String!): String, colour(value: Colour!): Colour, missing: String, broken: String }
`);
const rootValue = {
  hello: ({ name }: { name: string }) => `hello ${name}`,
  colour: ({ value }: { value: string }) => value,
  missing: () => Promise.reject(notFound('Thing', 'x')),
  broken: () => Promise.reject(new Error('connection string postgres://secret')),
};

function executorLogging() {
  const lines: string[] = [];
  const logger = createLogger('test', 'error', { write: (line: string) => void lines.push(line) });
  const run = directExecutor({
    schema,
    context: async (caller) => ({ requestId: caller.requestId }),
    run: async ({ document, operationName }, variableValues, contextValue) => execute({ schema, document, operationName, variableValues, contextValue, rootValue }),
    rewriteMessage: (message) => message.replace(/Did you mean ".+"/g, '[Suggestion hidden]'),
    logger,
  });
  return { run: (query: string, variables?: Record<string, unknown>) => run({ query, variables }, { requestId: 'r1' }), lines };
}

describe('operations run in-process without Apollo Server', () => {
  it('answers data for a valid operation, the same document again from its cache', async () => {
    const { run } = executorLogging();
    const query = 'query Hello($name: String!) { hello(name: $name) }';
    expect(await run(query, { name: 'a' })).toEqual({ data: { hello: 'hello a' } });
    expect(await run(query, { name: 'b' })).toEqual({ data: { hello: 'hello b' } });
  });

  it('refuses a document that does not parse or validate, with Apollo\'s codes and no data', async () => {
    const { run } = executorLogging();
    const unparsed = await run('query {');
    expect(unparsed.data).toBeUndefined();
    expect(unparsed.errors?.[0].extensions?.code).toBe('GRAPHQL_PARSE_FAILED');
    const invalid = await run('{ helo }');
    expect(invalid).toEqual({ errors: [expect.objectContaining({ extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } })] });
    expect(invalid.errors?.[0].message).toBe('Cannot query field "helo" on type "Query". [Suggestion hidden]?');
  });

  it('answers variables that do not fit as BAD_USER_INPUT without data', async () => {
    const { run } = executorLogging();
    const answer = await run('query C($value: Colour!) { colour(value: $value) }', { value: 'REDD' });
    expect(answer.data).toBeUndefined();
    expect(answer.errors).toHaveLength(1);
    expect(answer.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(answer.errors?.[0].message).toContain('Value "REDD" does not exist in "Colour" enum');
  });

  it('passes a domain error on as it is and masks an unexpected one, which it logs', async () => {
    const { run, lines } = executorLogging();
    const missing = await run('{ missing }');
    expect(missing.data).toEqual({ missing: null });
    expect(missing.errors?.[0]).toEqual(expect.objectContaining({ message: 'Thing not found', path: ['missing'], extensions: expect.objectContaining({ code: 'NOT_FOUND' }) }));
    expect(lines).toHaveLength(0);
    const broken = await run('{ broken }');
    expect(broken.errors).toEqual([{ message: 'Internal server error', path: ['broken'], extensions: { code: 'INTERNAL' } }]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('"reqId":"r1"');
  });
});
