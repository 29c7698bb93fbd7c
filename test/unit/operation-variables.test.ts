import { buildSchema, parse } from 'graphql';
import { OperationVariables } from '../../rest-adapter/variables';

const schema = buildSchema(`
  enum Status { ACTIVE INACTIVE }
  input Range { min: Int!, max: Float }
  input Filter { name: String, tags: [String!], active: Boolean, range: Range, status: Status }
  input Item { id: ID!, qty: Int! }
  type Query {
    search(limit: Int, count: Int!, ratio: Float, flag: Boolean, ids: [ID!], name: String, status: Status, filter: Filter, items: [Item!]): String
    ranged(input: Range!): String
  }
`);
const search = new OperationVariables(
  schema,
  parse(`query Search($limit: Int, $count: Int!, $ratio: Float, $flag: Boolean, $ids: [ID!], $name: String, $status: Status, $filter: Filter, $items: [Item!]) {
    search(limit: $limit, count: $count, ratio: $ratio, flag: $flag, ids: $ids, name: $name, status: $status, filter: $filter, items: $items)
  }`),
);
const ranged = new OperationVariables(schema, parse('query Ranged($input: Range!) { ranged(input: $input) }'));

/** The variables of Search from these strings (count is required: 1 unless given). */
const coerce = (raw: Record<string, unknown>) => search.coerce({ count: '1', ...raw });
const fieldsOf = (raw: Record<string, unknown>, variables = search) => variables.coerce(raw).errors.map((error) => error.field);

describe('REST variables coerced for an operation', () => {
  it('turns query-string numbers and booleans into numbers and booleans', () => {
    expect(coerce({ limit: '20', ratio: '-1.5', flag: 'true' })).toEqual({ values: { count: 1, limit: 20, ratio: -1.5, flag: true }, errors: [] });
    expect(coerce({ flag: 'false', ratio: ' 2 ' }).values).toMatchObject({ flag: false, ratio: 2 });
  });

  it('keeps values that are already typed (a JSON body) as they are', () => {
    expect(search.coerce({ count: 7, flag: false, ids: ['x', 'y'], name: 'n' })).toEqual({ values: { count: 7, flag: false, ids: ['x', 'y'], name: 'n' }, errors: [] });
  });

  it('splits a comma-separated string for a list, and wraps one value', () => {
    expect(coerce({ ids: 'a,b,c' }).values.ids).toEqual(['a', 'b', 'c']);
    expect(coerce({ ids: '' }).values.ids).toEqual([]);
    expect(search.coerce({ count: 1, ids: 42 }).values.ids).toEqual(['42']);
  });

  it('takes a JSON-encoded array for a list of scalars, as multipart sends one, commas inside items included', () => {
    expect(coerce({ ids: '["a,1", "b"]' }).values.ids).toEqual(['a,1', 'b']);
    expect(coerce({ ids: ' []' }).values.ids).toEqual([]);
    expect(coerce({ ids: '[a,b' }).values.ids).toEqual(['[a', 'b']);
    expect(fieldsOf({ count: '1', ids: '[{"x": 1}]' })).toEqual(['ids.0']);
  });

  it('treats an empty string as absent, except for a String or an ID', () => {
    const { values, errors } = coerce({ limit: '', flag: '', ratio: '', status: '', name: '' });
    expect(errors).toEqual([]);
    expect(values).toEqual({ count: 1, name: '' });
    expect(search.coerce({ count: '' }).errors).toEqual([{ field: 'count', message: 'count is required' }]);
  });

  it('parses a JSON-encoded input object, drops its unknown fields and coerces its fields in turn', () => {
    const { values, errors } = coerce({ filter: '{"name":"x","bogus":1,"active":"true","tags":"a,b","range":{"min":"3","max":"2.5"},"status":"ACTIVE"}' });
    expect(errors).toEqual([]);
    expect(values.filter).toEqual({ name: 'x', active: true, tags: ['a', 'b'], range: { min: 3, max: 2.5 }, status: 'ACTIVE' });
  });

  it('parses a JSON-encoded list of input objects (multipart), or one object as a list of one', () => {
    expect(coerce({ items: '[{"id":1,"qty":"2"},{"id":"b","qty":3}]' }).values.items).toEqual([
      { id: '1', qty: 2 },
      { id: 'b', qty: 3 },
    ]);
    expect(coerce({ items: '{"id":"1","qty":"2"}' }).values.items).toEqual([{ id: '1', qty: 2 }]);
  });

  it('drops variables the operation does not declare', () => {
    expect(coerce({ unknown: 'x', limit: '1' }).values).toEqual({ count: 1, limit: 1 });
  });

  it('reports each type error on the field it concerns, with the path into an input object', () => {
    const { errors } = coerce({ limit: 'abc', ratio: '1e3', flag: 'yes', status: 'NOPE', filter: '{"range":{"min":"x"}}' });
    expect(errors).toEqual([
      { field: 'limit', message: 'Int cannot represent non-integer value: "abc"' },
      { field: 'ratio', message: expect.stringContaining('Float cannot represent') },
      { field: 'flag', message: 'Boolean cannot represent a non boolean value: "yes"' },
      { field: 'status', message: expect.stringContaining('"NOPE"') },
      { field: 'filter.range.min', message: 'Int cannot represent non-integer value: "x"' },
    ]);
    expect(fieldsOf({ count: '1', limit: '1.5' })).toEqual(['limit']);
  });

  it('reports a JSON string that is not an object on the variable itself', () => {
    expect(fieldsOf({ count: '1', filter: '{not json' })).toEqual(['filter']);
    expect(fieldsOf({ count: '1', filter: '[1,2]' })).toEqual(['filter']);
  });

  it('names the fields of `input` without the prefix, and reports its missing required fields as required', () => {
    expect(ranged.coerce({ input: '{"min":"1"}' })).toEqual({ values: { input: { min: 1 } }, errors: [] });
    expect(ranged.coerce({})).toMatchObject({ errors: [{ field: 'min', message: 'min is required' }] });
    expect(fieldsOf({ input: { min: 'x', max: 'y' } }, ranged)).toEqual(['min', 'max']);
  });

  it('reads a JSON body as JSON: a list is an array and an object an object, never a string split or parsed', () => {
    expect(search.coerce({ count: 1, ids: 'a,b' }, 'json').errors).toEqual([{ field: 'ids', message: 'ids must be a list (a JSON array)' }]);
    expect(search.coerce({ count: 1, ids: 42 }, 'json').errors).toEqual([{ field: 'ids', message: 'ids must be a list (a JSON array)' }]);
    expect(search.coerce({ count: 1, filter: { tags: 'a' } }, 'json').errors).toEqual([{ field: 'filter.tags', message: 'filter.tags must be a list (a JSON array)' }]);
    expect(fieldsOf({ count: 1, filter: '{"name":"x"}' }, search)).toEqual([]);
    expect(search.coerce({ count: 1, filter: '{"name":"x"}' }, 'json').errors).toEqual([{ field: 'filter', message: expect.stringContaining('to be an object') }]);
    expect(search.coerce({ count: 1, ids: ['a', 'b'], limit: '5' }, 'json')).toEqual({ values: { count: 1, ids: ['a', 'b'], limit: 5 }, errors: [] });
  });

  it('takes a multipart list as a JSON-encoded array or a repeated field, and refuses any other text', () => {
    expect(search.coerce({ count: '1', ids: '["a,1","b"]' }, 'multipart').values.ids).toEqual(['a,1', 'b']);
    expect(search.coerce({ count: '1', ids: ['a', 'b'] }, 'multipart').values.ids).toEqual(['a', 'b']);
    expect(search.coerce({ count: '1', ids: '' }, 'multipart').values.ids).toEqual([]);
    for (const ids of ['a,b', 'null', '{"a":1}', '[a']) {
      expect([ids, search.coerce({ count: '1', ids }, 'multipart').errors]).toEqual([ids, [{ field: 'ids', message: 'ids must be a JSON-encoded array' }]]);
    }
  });

  it('with type errors, gives the rest of the variables (the fields in error left out) to be checked, unless something required is then missing', () => {
    const { errors, rest } = search.coerce({ count: 1, limit: 'x', name: 'n', ids: ['a', { b: 1 }], filter: { name: 'f', active: 'maybe', range: { min: 1, max: 'y' } } }, 'json');
    expect(errors.map((error) => error.field)).toEqual(['limit', 'ids.1', 'filter.active', 'filter.range.max']);
    expect(rest).toEqual({ count: 1, name: 'n', filter: { name: 'f', range: { min: 1 } } });
    expect(search.coerce({ count: 1, ids: 'a' }, 'json').rest).toEqual({ count: 1 });
    expect(search.coerce({ count: 'x' }).rest).toBeUndefined();
    expect(search.coerce({ count: 1, items: [{ id: 'i', qty: 'z' }] }).rest).toBeUndefined();
    expect(ranged.coerce({ input: { min: 'x', max: 1 } }).rest).toBeUndefined();
    expect(search.coerce({ count: 1 }).rest).toBeUndefined();
  });
});
