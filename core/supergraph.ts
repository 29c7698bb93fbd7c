import { Supergraph } from '@apollo/federation-internals';
import { GraphQLScalarType, GraphQLSchema } from 'graphql';
import { GraphQLDateTimeISO, GraphQLJSONObject } from 'graphql-scalars';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The committed supergraph, composed by `npm run schema`. */
export function readSupergraphSdl(): string {
  return readFileSync(join(__dirname, '..', 'schema', 'supergraph.graphql'), 'utf8');
}

/**
 * Custom scalars of the subgraphs. A schema built from SDL knows them only by name and would let any
 * value through; with their real parsers a bad value is refused on its field before it is forwarded.
 */
const CUSTOM_SCALARS: GraphQLScalarType[] = [GraphQLDateTimeISO, GraphQLJSONObject];

/** The schema clients see through the gateway (federation machinery removed). */
export function apiSchemaOf(supergraphSdl: string): GraphQLSchema {
  const schema = Supergraph.build(supergraphSdl).apiSchema().toGraphQLJSSchema();
  for (const implementation of CUSTOM_SCALARS) {
    const scalar = schema.getType(implementation.name);
    if (scalar instanceof GraphQLScalarType) {
      Object.assign(scalar, {
        parseValue: implementation.parseValue,
        parseLiteral: implementation.parseLiteral,
        serialize: implementation.serialize,
      });
    }
  }
  return schema;
}
