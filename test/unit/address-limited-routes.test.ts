import { Kind, OperationDefinitionNode, parse } from 'graphql';
import { readSupergraphSdl } from '../../core/supergraph';
import { namesAnyRootField, oncePerRequestFields } from '../../gateway/operation-limits';
import { ROUTES } from '../support/route-documents';

describe('routes rate limited by the client address', () => {
  it('include every route whose operation checks a secret or issues a credential (a once-per-request mutation)', () => {
    const signIns = oncePerRequestFields(readSupergraphSdl());
    const runsSignIn = ROUTES.filter((route) => {
      const document = parse(route.document);
      const operation = document.definitions.find((definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION)!;
      return namesAnyRootField(operation, document, signIns);
    });
    expect(runsSignIn.map((route) => route.path)).toEqual(expect.arrayContaining(['/auth/api/staffs/login', '/api/v1/auth/chatapp/login', '/auth/api/services/get-access-token']));
    expect(runsSignIn.filter((route) => !route.limitByAddress).map((route) => `${route.method} ${route.path}`)).toEqual([]);
  });
});
