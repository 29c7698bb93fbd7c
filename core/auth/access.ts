import { AuthChecker, createParameterDecorator, getMetadataStorage } from 'type-graphql';
import { forbidden, unauthenticated } from '../errors';
import { Principal, PrincipalKind } from './principal';

/**
 * Access rules of operations, declared on the resolver line: `@Authorized(POINT.permissions.read)`
 * (a permission), `@Authorized(Access.member, POINT.permissions.read)` (any member, or a holder of the
 * permission), `@Authorized(Access.selfBy('memberId'), ...)` (a member naming itself in that argument),
 * `@Authorized()` (any valid token), or `@Public()` (no token needed). Rules are alternatives: one
 * that holds lets the call through. Without a token the answer is 401, otherwise 403.
 */
export const Access = {
  member: 'kind=member',
  staff: 'kind=staff',
  service: 'kind=service',
  /** A member whose id is the argument `arg` (a member acting on itself). */
  selfBy: (arg: string) => `self=${arg}`,
} as const;

function holds(rule: string, principal: Principal, args: Record<string, unknown>): boolean {
  const [kind, value] = rule.split('=');
  if (value === undefined) return principal.can(rule);
  if (kind === 'kind') return principal.kind === (value as PrincipalKind);
  if (kind === 'self') return principal.kind === 'member' && args[value] === principal.id;
  throw new Error(`Unknown access rule "${rule}"`);
}

/** type-graphql's auth checker over the request context's principal. */
export const authChecker: AuthChecker<{ principal?: Principal }> = ({ context, args }, rules) => {
  const { principal } = context;
  if (!principal) throw unauthenticated();
  if (rules.length > 0 && !rules.some((rule) => holds(rule, principal, args))) throw forbidden();
  return true;
};

const PUBLIC_OPERATIONS = new Map<Function, Set<string>>();

/** Marks an operation that needs no token; an operation carries this or `@Authorized` (CI checks it). */
export const Public =
  (): MethodDecorator =>
  (target, propertyKey): void => {
    const names = PUBLIC_OPERATIONS.get(target.constructor) ?? new Set<string>();
    names.add(String(propertyKey));
    PUBLIC_OPERATIONS.set(target.constructor, names);
  };

export const isPublic = (resolverClass: Function, methodName: string): boolean => PUBLIC_OPERATIONS.get(resolverClass)?.has(methodName) ?? false;

/** The caller of an operation behind `@Authorized` (present by then). */
export const Caller = () =>
  createParameterDecorator<{ principal?: Principal }>(({ context }) => {
    if (!context.principal) throw unauthenticated();
    return context.principal;
  });

/** How an access rule reads in the operations list (schema/access.md). */
function describeRule(rule: string): string {
  const [kind, value] = rule.split('=');
  if (value === undefined) return `\`${rule}\``;
  return kind === 'self' ? `the member named by \`${value}\`` : `any ${value}`;
}

/** One root operation of a subgraph and who may call it; `access` is undefined when it declares nothing. */
export interface OperationAccess {
  operation: string;
  access?: string;
}

/**
 * Every Query, Mutation and Subscription field of the given resolver classes with the access it
 * declares (`@Authorized` or `@Public`), read from type-graphql's metadata.
 */
export function operationAccess(resolvers: readonly Function[]): OperationAccess[] {
  const storage = getMetadataStorage();
  const operations = [
    ...storage.queries.map((query) => ({ type: 'Query', query })),
    ...storage.mutations.map((query) => ({ type: 'Mutation', query })),
    ...storage.subscriptions.map((query) => ({ type: 'Subscription', query })),
  ].filter(({ query }) => resolvers.includes(query.target));
  return operations.map(({ type, query }) => {
    const operation = `${type}.${query.schemaName}`;
    if (isPublic(query.target, query.methodName)) return { operation, access: 'public' };
    const authorized = storage.authorizedFields.find((field) => field.target === query.target && field.fieldName === query.methodName);
    if (!authorized) return { operation };
    return { operation, access: authorized.roles.length === 0 ? 'any token' : authorized.roles.map(describeRule).join(' or ') };
  });
}
