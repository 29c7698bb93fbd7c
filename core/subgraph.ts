import { buildSubgraphSchema } from '@apollo/subgraph';
import { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper';
import { printSchemaWithDirectives } from '@graphql-tools/utils';
import { GraphQLSchema, parse } from 'graphql';
import { buildSchema, createResolversMap, NonEmptyArray, PubSub } from 'type-graphql';
import { authChecker } from './auth/access';
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
  container?: { get: (resolverClass: any) => unknown };
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

/** Builds a federation v2 subgraph from type-graphql resolvers. */
export async function buildSubgraph(definition: SubgraphDefinition): Promise<BuiltSubgraph> {
  const typeGraphqlSchema = await buildSchema({
    resolvers: definition.resolvers,
    orphanedTypes: definition.orphanedTypes,
    skipCheck: true,
    validate: false,
    validateFn: validateArgument,
    authChecker,
    pubSub: definition.pubSub ?? NO_TOPICS,
    container: definition.container,
  });
  const sdl = `${FEDERATION_LINK}\n\n${printSchemaWithDirectives(typeGraphqlSchema)}`;
  const resolvers = createResolversMap(typeGraphqlSchema) as GraphQLResolverMap<unknown>;
  for (const [typeName, reference] of Object.entries(definition.referenceResolvers ?? {})) {
    resolvers[typeName] = { ...(resolvers[typeName] as object), ...reference } as never;
  }
  const schema = buildSubgraphSchema({ typeDefs: parse(sdl), resolvers });
  return { schema, sdl };
}
