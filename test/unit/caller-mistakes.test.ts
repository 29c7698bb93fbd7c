import { buildSchema, getOperationAST, parse } from 'graphql';
import { callerMistake } from '../../gateway/caller-mistakes';

const schema = buildSchema(`
  input Claim { quantity: Int! = 1, note: String }
  type Query { list(page: Int! = 1, search: String): [String], one(id: ID!): String }
  type Mutation { claim(input: Claim!): Int }
  type Subscription { events: String }
`);

/** What the gateway answers before planning, for a document and what the request carries beside it. */
function mistakeOf(query: string, request: { operationName?: string; variables?: Record<string, unknown> } = {}) {
  const document = parse(query);
  const mistake = callerMistake(schema, document, getOperationAST(document, request.operationName) ?? undefined, request);
  return mistake && { message: mistake.message, extensions: mistake.extensions };
}

describe("the gateway's caller mistakes", () => {
  it('names no operation to run: an unknown name, or several and none named', () => {
    expect(mistakeOf('query A { one(id: "1") }', { operationName: 'B' })).toEqual({ message: 'Unknown operation named "B".', extensions: { code: 'OPERATION_RESOLUTION_FAILURE' } });
    expect(mistakeOf('query A { one(id: "1") } query B { one(id: "2") }')?.extensions).toEqual({ code: 'OPERATION_RESOLUTION_FAILURE' });
    expect(mistakeOf('query A { one(id: "1") } query B { one(id: "2") }', { operationName: 'B' })).toBeUndefined();
  });

  it('refuses a subscription sent over HTTP', () => {
    expect(mistakeOf('subscription { events }')?.extensions).toEqual({ code: 'BAD_REQUEST' });
  });

  it('refuses null for a nullable variable used where a non-null argument or input field has a default, through fragments too', () => {
    expect(mistakeOf('query ($p: Int) { list(page: $p) }', { variables: { p: null } })?.extensions).toEqual({ code: 'BAD_USER_INPUT', errors: [{ field: 'p', message: 'p must not be null: leave it out to take its default' }] });
    expect(mistakeOf('mutation ($q: Int) { claim(input: {quantity: $q}) }', { variables: { q: null } })?.extensions).toMatchObject({ errors: [{ field: 'q' }] });
    expect(mistakeOf('query ($p: Int) { ...F } fragment F on Query { list(page: $p) }', { variables: { p: null } })?.extensions).toMatchObject({ errors: [{ field: 'p' }] });
    expect(mistakeOf('query ($p: Int = null) { list(page: $p) }')?.extensions).toMatchObject({ errors: [{ field: 'p' }] });
  });

  it('lets through what runs: a variable left out, given, non-null, or null where null is allowed', () => {
    expect(mistakeOf('query ($p: Int) { list(page: $p) }', { variables: {} })).toBeUndefined();
    expect(mistakeOf('query ($p: Int) { list(page: $p) }', { variables: { p: 2 } })).toBeUndefined();
    expect(mistakeOf('query ($p: Int!) { list(page: $p) }', { variables: { p: 2 } })).toBeUndefined();
    expect(mistakeOf('query ($s: String) { list(search: $s) }', { variables: { s: null } })).toBeUndefined();
  });

  it('refuses variables nested deeper than a request body may be', () => {
    let deep: unknown = 'leaf';
    for (let depth = 0; depth < 40; depth += 1) deep = { a: deep };
    expect(mistakeOf('query ($s: String) { list(search: $s) }', { variables: { s: deep } })?.extensions).toEqual({ code: 'BAD_USER_INPUT', errors: [{ field: 's', message: 's nests arrays and objects more than 32 deep' }] });
  });
});
