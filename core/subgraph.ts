import { buildSubgraphSchema } from '@apollo/subgraph';
import { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper';
import { printSchemaWithDirectives } from '@graphql-tools/utils';
import { GraphQLSchema, parse } from 'graphql';
import { buildSchema, createResolversMap, NonEmptyArray, PubSub } from 'type-graphql';
import { authChecker } from './auth/access';
import { RequestContext } from './context';
import { AppError } from './errors';
import { validateArgument } from './validation';

const FEDERATION_LINK =
  'extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key", "@shareable", "@external", "@requires", "@provides", "@inaccessible", "@override", "@tag"])';

/** `__resolveReference` per entity type, for the `@key` entities a subgraph owns or extends. */
export type ReferenceResolvers = Record<string, { __resolveReference: (reference: any, context: any) => unknown }>;

export interface SubgraphDefinition {
  name: string;
  resolvers: NonEmptyArray<Function>;
  orphanedTypes?: Function[];
  /** `__resolveReference` per entity type, for the `@key` entities this subgraph owns. */
  referenceResolvers?: ReferenceResolvers;
  pubSub?: PubSub;
  /** Builds each resolver class; lets resolvers receive the subgraph's dependencies in their constructor. */
  container?: ResolverContainer;
}

export interface BuiltSubgraph {
  schema: GraphQLSchema;
  /** The SDL the gateway composes, with federation directives. */
  sdl: string;
}

/**
 * type-graphql refuses a schema with subscriptions but no PubSub, even when each names its own source
 * (`@Subscription({ subscribe })`, as ours do: PostgreSQL LISTEN, not an in-memory topic). This one
 * refuses topics.
 */
const NO_TOPICS: PubSub = {
  publish: () => {
    throw new Error('Subscriptions name their own source (`subscribe`); there are no topics to publish to');
  },
  subscribe: () => {
    throw new Error('Subscriptions name their own source (`subscribe`), not topics');
  },
};

type ResolverContainer = { get: (resolverClass: any) => unknown };

/** type-graphql's own way: one instance of each resolver class. */
function singletons(): ResolverContainer {
  const instances = new Map<Function, unknown>();
  return { get: (resolverClass) => instances.get(resolverClass) ?? instances.set(resolverClass, new resolverClass()).get(resolverClass) };
}

/**
 * The resolvers of a validate-only request (RequestContext.validateOnly): type-graphql has checked the
 * caller and the arguments before it calls a resolver's method, so every method answers that they
 * passed, and nothing runs.
 */
const VALIDATE_ONLY: ResolverContainer = {
  get: () =>
    new Proxy(
      {},
      {
        // Not a promise (no `then`): type-graphql awaits a resolver instance that is one.
        get: (_target, property) =>
          property === 'then'
            ? undefined
            : () => {
                throw new AppError('VALIDATION', 'The arguments passed their checks; nothing was run (validate only)');
              },
      },
    ),
};

/** Builds a federation v2 subgraph from type-graphql resolvers. */
export async function buildSubgraph(definition: SubgraphDefinition): Promise<BuiltSubgraph> {
  const resolverInstances = definition.container ?? singletons();
  const typeGraphqlSchema = await buildSchema({
    resolvers: definition.resolvers,
    orphanedTypes: definition.orphanedTypes,
    skipCheck: true,
    validate: false,
    validateFn: validateArgument,
    authChecker,
    pubSub: definition.pubSub ?? NO_TOPICS,
    container: ({ context }) => ((context as RequestContext | undefined)?.validateOnly ? VALIDATE_ONLY : resolverInstances),
  });
  const sdl = `${FEDERATION_LINK}\n\n${printSchemaWithDirectives(typeGraphqlSchema)}`;
  const resolvers = createResolversMap(typeGraphqlSchema) as GraphQLResolverMap<unknown>;
  for (const [typeName, reference] of Object.entries(definition.referenceResolvers ?? {})) {
    resolvers[typeName] = { ...(resolvers[typeName] as object), ...reference } as never;
  }
  const schema = buildSubgraphSchema({ typeDefs: parse(sdl), resolvers });
  return { schema, sdl };
}
