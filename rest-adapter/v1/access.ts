import { RequestHandler } from 'express';
import { Principal } from '../../core/auth/principal';
import { Route } from '../../core/rest/route';
import { V1FailureContext } from './envelope';
import { answerInsufficientScope, answerInvalidToken } from './errors';
import { routeScopes, scopesOf } from './scopes';

/** What a v1 route's failures need to know of it (its scope, `_NOT_FOUND` code and path parameters). */
export function v1ContextOf(route: Route): V1FailureContext {
  return {
    scope: routeScopes(route).join(' '),
    notFound: route.notFound,
    unauthenticated: route.unauthenticated,
    params: [...route.path.matchAll(/:(\w+)/g)].map((match) => match[1]),
    own: route.v1Failure,
  };
}

/**
 * The access check of every v1 route, from its declaration, before the body is read: a credential
 * (401 `invalid_token` otherwise), a customer token only where the route lets customers in and only on
 * their own id, and the route's scope (403 `insufficient_scope` otherwise). The subgraphs check again.
 * A public route (chat-app login) takes any caller.
 */
export function v1Access(route: Route): RequestHandler {
  const context = v1ContextOf(route);
  return (req, res, next) => {
    res.locals.v1 = context;
    if (route.public) return next();
    const principal: Principal | undefined = res.locals.principal;
    if (!principal) return answerInvalidToken(res);
    if (principal.kind === 'member' && !customerMayCall(route, req.params as Record<string, string>, principal)) {
      return answerInsufficientScope(res, context.scope, 'A customer token reaches only its own data');
    }
    const held = scopesOf(principal);
    if (!routeScopes(route).every((scope) => held.includes(scope))) return answerInsufficientScope(res, context.scope);
    next();
  };
}

function customerMayCall(route: Route, params: Record<string, string>, principal: Principal): boolean {
  if (route.customer === 'self') return true;
  return route.customer !== undefined && params[route.customer.param] === principal.id;
}
