import { Supergraph } from '@apollo/federation-internals';
import { GraphQLSchema } from 'graphql';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The committed supergraph, composed by `npm run schema`. */
export function readSupergraphSdl(): string {
  return readFileSync(join(__dirname, '..', 'schema', 'supergraph.graphql'), 'utf8');
}

/** The schema clients see through the gateway (federation machinery removed). */
export function apiSchemaOf(supergraphSdl: string): GraphQLSchema {
  return Supergraph.build(supergraphSdl).apiSchema().toGraphQLJSSchema();
}
