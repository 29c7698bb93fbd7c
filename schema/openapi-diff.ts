/**
 * The changes between two versions of the v1 OpenAPI description, judged from a client's side
 * (`npm run schema:diff`, schema/diff.ts). A request must still accept everything it accepted; a
 * response must return nothing an old client cannot read. Each change names its operation
 * (`GET /api/v1/customers`) and where in it, with a JSON-pointer-like path into the schema; every
 * `$ref` is followed, so a change to a component shows under each operation that uses it.
 */

/** One difference between two versions of a public schema. */
export interface SchemaChange {
  level: 'breaking' | 'dangerous' | 'safe';
  /** What CHANGELOG.md names to record the change: `Query.customer`, `GET /api/v1/customers`. */
  coordinate: string;
  message: string;
}

/** A JSON object of an OpenAPI description; what each keyword holds is checked where it is read. */
type Node = Record<string, unknown>;
type Direction = 'request' | 'response';
type Report = (level: SchemaChange['level'], where: string, what: string) => void;

interface Comparison {
  before: Node;
  after: Node;
  report: Report;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const UPPER_LIMITS = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems'];
const LOWER_LIMITS = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems'];
const ALTERNATIVES = ['allOf', 'anyOf', 'oneOf'];

/** Every change from `before` to `after`, operation by operation (`GET /api/v1/customers`), safe ones included. */
export function openApiChanges(before: Node, after: Node): SchemaChange[] {
  const changes: SchemaChange[] = [];
  const [oldPaths, newPaths] = [objectOf(before.paths), objectOf(after.paths)];
  for (const path of keysOf(oldPaths, newPaths)) {
    const [oldItem, newItem] = [objectOf(oldPaths[path]), objectOf(newPaths[path])];
    for (const method of METHODS.filter((method) => oldItem[method] || newItem[method])) {
      const coordinate = `${method.toUpperCase()} ${path}`;
      const report: Report = (level, where, what) => changes.push({ level, coordinate, message: where ? `${where}: ${what}` : what });
      if (!newItem[method]) report('breaking', '', 'operation removed');
      else if (!oldItem[method]) report('safe', '', 'operation added');
      else compareOperation({ before, after, report }, [oldItem, objectOf(oldItem[method])], [newItem, objectOf(newItem[method])]);
    }
  }
  return changes;
}

function compareOperation(comparison: Comparison, [oldItem, oldOperation]: Node[], [newItem, newOperation]: Node[]): void {
  compareParameters(comparison, parametersOf(comparison.before, oldItem, oldOperation), parametersOf(comparison.after, newItem, newOperation));
  compareRequestBody(comparison, resolve(comparison.before, oldOperation.requestBody), resolve(comparison.after, newOperation.requestBody));
  const [oldResponses, newResponses] = [objectOf(oldOperation.responses), objectOf(newOperation.responses)];
  for (const status of keysOf(oldResponses, newResponses)) {
    const where = `response ${status}`;
    if (!newResponses[status]) comparison.report(status.startsWith('2') ? 'breaking' : 'safe', where, 'response removed');
    else if (!oldResponses[status]) comparison.report('safe', where, 'response added');
    else compareResponse(comparison, where, resolve(comparison.before, oldResponses[status]), resolve(comparison.after, newResponses[status]));
  }
}

/** The operation's parameters with its path item's, by `<in> <name>` (the operation's win). */
function parametersOf(document: Node, item: Node, operation: Node): Map<string, Node> {
  const parameters = [...arrayOf(item.parameters), ...arrayOf(operation.parameters)].map((parameter) => resolve(document, parameter));
  return new Map(parameters.map((parameter) => [`${parameter.in} ${parameter.name}`, parameter]));
}

function compareParameters(comparison: Comparison, before: Map<string, Node>, after: Map<string, Node>): void {
  for (const key of keysOf(Object.fromEntries(before), Object.fromEntries(after))) {
    const [old, now] = [before.get(key), after.get(key)];
    const where = `parameter ${key}`;
    if (!now) comparison.report('dangerous', where, 'parameter removed (clients that send it are ignored or refused)');
    else if (!old) comparison.report(now.required ? 'breaking' : 'safe', where, now.required ? 'required parameter added' : 'optional parameter added');
    else {
      compareRequired(comparison.report, 'request', where, old.required === true, now.required === true);
      compareSchema(comparison, 'request', where, '', [old.schema, now.schema]);
    }
  }
}

function compareRequestBody(comparison: Comparison, old: Node, now: Node): void {
  const where = 'request body';
  if (!old.content && !now.content) return;
  if (!now.content) comparison.report('dangerous', where, 'request body removed');
  else if (!old.content) comparison.report(now.required ? 'breaking' : 'safe', where, now.required ? 'required request body added' : 'optional request body added');
  else {
    compareRequired(comparison.report, 'request', where, old.required === true, now.required === true);
    compareContent(comparison, 'request', where, objectOf(old.content), objectOf(now.content));
  }
}

function compareResponse(comparison: Comparison, where: string, old: Node, now: Node): void {
  const [oldHeaders, newHeaders] = [objectOf(old.headers), objectOf(now.headers)];
  for (const header of keysOf(oldHeaders, newHeaders)) {
    if (!newHeaders[header]) comparison.report('breaking', `${where} header ${header}`, 'header removed');
    else if (!oldHeaders[header]) comparison.report('safe', `${where} header ${header}`, 'header added');
  }
  compareContent(comparison, 'response', where, objectOf(old.content), objectOf(now.content));
}

/** Each media type of a body: one a client sends or reads must stay. */
function compareContent(comparison: Comparison, direction: Direction, where: string, before: Node, after: Node): void {
  for (const mediaType of keysOf(before, after)) {
    const at = `${where} (${mediaType})`;
    if (!after[mediaType]) comparison.report('breaking', at, 'media type removed');
    else if (!before[mediaType]) comparison.report('safe', at, 'media type added');
    else compareSchema(comparison, direction, at, '', [objectOf(before[mediaType]).schema, objectOf(after[mediaType]).schema]);
  }
}

/** Required turned on in a request, or off in a response, breaks a client. */
function compareRequired(report: Report, direction: Direction, where: string, wasRequired: boolean, isRequired: boolean): void {
  if (wasRequired === isRequired) return;
  const breaks = direction === 'request' ? isRequired : wasRequired;
  report(breaks ? 'breaking' : 'safe', where, isRequired ? 'now required' : 'no longer required');
}

/**
 * Two versions of a schema at `pointer` (JSON-pointer-like: `/data[]/points/balance`) under `where`.
 * `seen` holds the pairs of components being compared on this branch, so a recursive one is compared once.
 */
function compareSchema(comparison: Comparison, direction: Direction, where: string, pointer: string, schemas: [unknown, unknown], seen: ReadonlySet<string> = new Set()): void {
  const [old, now] = [normalized(comparison.before, schemas[0]), normalized(comparison.after, schemas[1])];
  const pair = `${old.ref} ${now.ref}`;
  if (seen.has(pair)) return;
  const next = old.ref || now.ref ? new Set(seen).add(pair) : seen;
  const at = pointer ? `${where} ${pointer}` : where;
  const descend = (child: string, oldChild: unknown, newChild: unknown) => compareSchema(comparison, direction, where, `${pointer}${child}`, [oldChild, newChild], next);
  compareTypes(comparison.report, direction, at, typesOf(old.node), typesOf(now.node));
  compareValues(comparison.report, direction, at, valuesOf(old.node), valuesOf(now.node));
  compareLimits(comparison.report, direction, at, old.node, now.node);
  const [oldProperties, newProperties] = [objectOf(old.node.properties), objectOf(now.node.properties)];
  const [oldRequired, newRequired] = [arrayOf(old.node.required), arrayOf(now.node.required)];
  for (const name of keysOf(oldProperties, newProperties)) {
    const property = `${where} ${pointer}/${name}`;
    if (!(name in newProperties)) reportRemovedProperty(comparison.report, direction, property, now.node);
    else if (!(name in oldProperties)) reportAddedProperty(comparison.report, direction, property, newRequired.includes(name));
    else {
      compareRequired(comparison.report, direction, property, oldRequired.includes(name), newRequired.includes(name));
      descend(`/${name}`, oldProperties[name], newProperties[name]);
    }
  }
  if (old.node.items || now.node.items) descend('[]', old.node.items, now.node.items);
  if (isObject(old.node.additionalProperties) && isObject(now.node.additionalProperties)) descend('/*', old.node.additionalProperties, now.node.additionalProperties);
  for (const keyword of ALTERNATIVES) {
    const [oldAlternatives, newAlternatives] = [arrayOf(old.node[keyword]), arrayOf(now.node[keyword])];
    if (oldAlternatives.length !== newAlternatives.length) comparison.report('dangerous', at, `${keyword} of ${oldAlternatives.length} → ${newAlternatives.length} schemas (not compared)`);
    else oldAlternatives.forEach((alternative, index) => descend(`/${keyword}/${index}`, alternative, newAlternatives[index]));
  }
}

function reportRemovedProperty(report: Report, direction: Direction, pointer: string, now: Node): void {
  if (direction === 'response') report('breaking', pointer, 'property removed');
  else if (now.additionalProperties === false) report('breaking', pointer, 'property removed (the body refuses unknown properties)');
  else report('dangerous', pointer, 'property removed (now ignored)');
}

function reportAddedProperty(report: Report, direction: Direction, pointer: string, required: boolean): void {
  if (direction === 'response') report('safe', pointer, 'property added');
  else report(required ? 'breaking' : 'safe', pointer, required ? 'required property added' : 'optional property added');
}

/**
 * What a client sends must still be accepted (the old request's types within the new's); what a
 * server returns must be readable (the new response's types within the old's). No `type` is any type.
 */
function compareTypes(report: Report, direction: Direction, where: string, before: string[] | undefined, after: string[] | undefined): void {
  const [inner, outer] = direction === 'request' ? [before, after] : [after, before];
  if (String(before) === String(after)) return;
  const fits = outer === undefined || (inner !== undefined && inner.every((type) => outer.includes(type) || (type === 'integer' && outer.includes('number'))));
  report(fits ? 'safe' : 'breaking', where, `type ${before?.join(' | ') ?? 'any'} → ${after?.join(' | ') ?? 'any'}`);
}

/** Enum values (a `const` is one): one removed from a request breaks a client; one added to a response may surprise it. */
function compareValues(report: Report, direction: Direction, where: string, before: unknown[] | undefined, after: unknown[] | undefined): void {
  if (before === undefined && after === undefined) return;
  if (before === undefined || after === undefined) {
    const restricted = after !== undefined;
    const level = direction === 'request' ? (restricted ? 'breaking' : 'safe') : restricted ? 'safe' : 'dangerous';
    report(level, where, restricted ? `values restricted to ${JSON.stringify(after)}` : 'values no longer restricted');
    return;
  }
  for (const value of before.filter((value) => !includesValue(after, value))) report(direction === 'request' ? 'breaking' : 'safe', where, `value ${JSON.stringify(value)} removed`);
  for (const value of after.filter((value) => !includesValue(before, value))) report(direction === 'request' ? 'safe' : 'dangerous', where, `value ${JSON.stringify(value)} added`);
}

/** Bounds, pattern and format: tighter in a request breaks a client; looser in a response is dangerous. */
function compareLimits(report: Report, direction: Direction, where: string, before: Node, after: Node): void {
  const [inner, outer] = direction === 'request' ? [before, after] : [after, before];
  const violation = direction === 'request' ? 'breaking' : 'dangerous';
  for (const keyword of [...UPPER_LIMITS, ...LOWER_LIMITS]) {
    if (before[keyword] === after[keyword]) continue;
    const [limit, bound] = [inner[keyword], outer[keyword]];
    const within = typeof bound !== 'number' || (typeof limit === 'number' && (UPPER_LIMITS.includes(keyword) ? limit <= bound : limit >= bound));
    report(within ? 'safe' : violation, where, `${keyword} ${before[keyword] ?? 'none'} → ${after[keyword] ?? 'none'}`);
  }
  for (const keyword of ['pattern', 'format']) {
    if (before[keyword] === after[keyword]) continue;
    report(outer[keyword] === undefined ? 'safe' : violation, where, `${keyword} ${before[keyword] ?? 'none'} → ${after[keyword] ?? 'none'}`);
  }
}

/**
 * A schema with its `$ref` followed, its `allOf` merged into it, and a nullable one (`anyOf: [X,
 * {type: 'null'}]`, as the generator writes it) folded into X with `null` among its types; `ref` names
 * the component reached.
 */
function normalized(document: Node, schema: unknown): { node: Node; ref: string } {
  const node = resolve(document, schema);
  if (Array.isArray(node.allOf)) {
    return { node: merged([without(node, 'allOf'), ...node.allOf.map((member) => normalized(document, member).node)]), ref: refOf(schema) };
  }
  for (const keyword of ['anyOf', 'oneOf']) {
    const alternatives = arrayOf(node[keyword]);
    const other = alternatives.filter((alternative) => !isNull(resolve(document, alternative)));
    if (alternatives.length !== 2 || other.length !== 1) continue;
    const folded = normalized(document, other[0]);
    const types = typesOf(folded.node);
    return { node: { ...without(node, keyword), ...folded.node, ...(types ? { type: [...types, 'null'] } : {}) }, ref: refOf(schema) || folded.ref };
  }
  return { node, ref: refOf(schema) };
}

/** The schemas of an `allOf` as one: their properties (one named twice is the `allOf` of both) and required ones together, any other keyword the last's. */
function merged(schemas: Node[]): Node {
  const result: Node = {};
  for (const schema of schemas) {
    const properties = objectOf(result.properties);
    for (const [name, property] of Object.entries(objectOf(schema.properties))) properties[name] = name in properties ? { allOf: [properties[name], property] } : property;
    Object.assign(result, schema, { properties, required: [...new Set([...arrayOf(result.required), ...arrayOf(schema.required)])] });
  }
  return result;
}

function without(node: Node, keyword: string): Node {
  const rest = { ...node };
  delete rest[keyword];
  return rest;
}

function isNull(schema: Node): boolean {
  return schema.type === 'null' && Object.keys(schema).length === 1;
}

function typesOf(schema: Node): string[] | undefined {
  if (schema.type === undefined) return undefined;
  return [schema.type].flat().map(String).sort();
}

function valuesOf(schema: Node): unknown[] | undefined {
  if ('const' in schema) return [schema.const];
  return Array.isArray(schema.enum) ? schema.enum : undefined;
}

function includesValue(values: unknown[], value: unknown): boolean {
  return values.some((candidate) => JSON.stringify(candidate) === JSON.stringify(value));
}

/** Follows `$ref`s within the document (`#/components/...`) to the object they name. */
function resolve(document: Node, value: unknown, depth = 0): Node {
  const node = objectOf(value);
  if (typeof node.$ref !== 'string' || !node.$ref.startsWith('#/') || depth > 32) return node;
  const target = node.$ref.slice(2).split('/').map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~')).reduce<unknown>((parent, key) => objectOf(parent)[key], document);
  return resolve(document, target, depth + 1);
}

function refOf(schema: unknown): string {
  return String(objectOf(schema).$ref ?? '');
}

function keysOf(before: Node, after: Node): string[] {
  return [...new Set([...Object.keys(before), ...Object.keys(after)])];
}

function isObject(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function objectOf(value: unknown): Node {
  return isObject(value) ? value : {};
}

function arrayOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
