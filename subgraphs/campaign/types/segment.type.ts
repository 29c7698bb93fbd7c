import { Directive, Field, ID, ObjectType } from 'type-graphql';

/** The cluster subgraph's Segment, as the campaign subgraph sees it: a key the gateway resolves (its names come from the cluster). */
@Directive('@key(fields: "id", resolvable: false)')
@ObjectType('Segment')
export class SegmentReference {
  @Field(() => ID) id: string;
}
