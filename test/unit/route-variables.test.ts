import { Kind, OperationDefinitionNode, parse } from 'graphql';
import { apiSchemaOf, readSupergraphSdl } from '../../core/supergraph';
import { defaultVariables, operationNameOf, RouteInput } from '../../core/rest/route';
import { routeDocument, ROUTES } from '../support/route-documents';
import { OperationVariables } from '../../rest-adapter/variables';

const schema = apiSchemaOf(readSupergraphSdl());

/** What the adapter forwards for a route on the default mapping: `defaultVariables`, coerced against the operation. */
function forwarded(document: string, request: Partial<RouteInput>) {
  const input: RouteInput = { params: {}, query: {}, body: {}, cookies: {}, headers: {}, uploads: {}, ...request };
  return new OperationVariables(schema, parse(document)).coerce(defaultVariables(input));
}

function operationOf(text: string): OperationDefinitionNode {
  const document = parse(text);
  return document.definitions.find((definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION)!;
}

describe('the default variable mapping', () => {
  it('takes a path parameter over a query value of the same name, and coerces the query string', () => {
    const { values, errors } = forwarded(routeDocument('BadgeProgress'), { params: { memberId: 'from-path' }, query: { memberId: 'from-query', page: '2', isCompleted: 'true' } });
    expect(errors).toEqual([]);
    expect(values).toEqual({ memberId: 'from-path', page: 2, isCompleted: true });
  });

  it('passes the body as $input, whatever the query string says about input', () => {
    const { values, errors } = forwarded(routeDocument('UpdateSegment'), { params: { id: 'segment-1' }, query: { input: '{"name_en":"from query"}' }, body: { name_en: 'From body' } });
    expect(errors).toEqual([]);
    expect(values).toEqual({ id: 'segment-1', input: { name_en: 'From body' } });
  });

  it('forwards only the variables the operation declares: no input without $input, no unknown names', () => {
    const { values, errors } = forwarded(routeDocument('PointShopRule'), { params: { id: 'rule-1' }, query: { locale: 'th', search: 'x', extra: 'y' }, body: { name_en: 'ignored' } });
    expect(errors).toEqual([]);
    expect(values).toEqual({ id: 'rule-1', locale: 'th' });
  });

  it('never takes a variable from a top-level body field: such routes spell their mapping out', () => {
    const fromBody = forwarded(routeDocument('ExchangeApiKey'), { body: { apiKey: 'lp_secret' } });
    expect(fromBody.values).toEqual({});
    expect(fromBody.errors).toEqual([{ field: 'apiKey', message: 'apiKey is required' }]);
  });

  it('passes an empty body as an empty input, whose required fields are reported on their own names', () => {
    const { errors } = forwarded(routeDocument('CreateSegment'), {});
    expect(errors.map((error) => error.field).sort()).toEqual(['name_en', 'type']);
  });
});

describe('the route table', () => {
  it('leaves to the default mapping only routes whose required variables it can fill: a path parameter or the body as input', () => {
    const unserved = ROUTES.filter((route) => !route.variables).flatMap((route) => {
      const pathParameters = [...route.path.matchAll(/:(\w+)/g)].map((match) => match[1]);
      return (operationOf(route.document).variableDefinitions ?? [])
        .filter((definition) => definition.type.kind === Kind.NON_NULL_TYPE && !definition.defaultValue)
        .map((definition) => definition.variable.name.value)
        .filter((name) => name !== 'input' && !pathParameters.includes(name))
        .map((name) => `${route.method.toUpperCase()} ${route.path}: $${name}`);
    });
    expect(unserved).toEqual([]);
  });

  it('has routes with the message envelope select no more than id, since they answer only their message', () => {
    const messageRoutes = ROUTES.filter((route) => route.envelope === 'message');
    expect(messageRoutes.length).toBeGreaterThan(0);
    const selecting = messageRoutes.flatMap((route) => {
      const [root] = operationOf(route.document).selectionSet.selections;
      const fields = root.kind === Kind.FIELD ? (root.selectionSet?.selections ?? []).map((selection) => (selection.kind === Kind.FIELD ? selection.name.value : selection.kind)) : [root.kind];
      return fields.every((field) => field === 'id') ? [] : [`${operationNameOf(route.document)}: ${fields.join(' ')}`];
    });
    expect(selecting).toEqual([]);
  });
});
