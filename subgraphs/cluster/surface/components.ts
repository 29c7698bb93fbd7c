import { JsonSchema, arrayOf, id, integer, nullable, oneOf, record, string } from '../../../core/rest/json-schema';

/** The v1 resources of segments and tiers, as the routes answer them (snake_case). */
export const CLUSTER_COMPONENTS: Record<string, JsonSchema> = {
  Segment: record({ id: id(), name: nullable(string()), type: oneOf('manual', 'ai') }),
  Tier: record({ id: id(), name: nullable(string()), level: integer(), points_threshold: integer(), benefits: arrayOf(string()) }),
};
