import { IsObject, IsOptional, IsUUID } from 'class-validator';
import { GraphQLJSON } from 'graphql-scalars';
import { Field, ID, InputType } from 'type-graphql';

/** A convenience endpoint's body: the member, and the fields of the template's kind (spec Part 2, metadata by kind). */
@InputType()
export class TemplatedInAppNotificationInput {
  @Field(() => ID) @IsUUID() memberId: string;
  @Field(() => GraphQLJSON, { nullable: true, description: "The kind's metadata fields; they fill the texts and are kept as the metadata" })
  @IsOptional()
  @IsObject()
  fields?: Record<string, unknown> | null;
}
