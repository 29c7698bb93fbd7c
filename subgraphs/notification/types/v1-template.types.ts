import { Field, InputType } from 'type-graphql';

/** Checked by the service, every bad field at once. */
@InputType({ description: 'A notification template: {{variable}} placeholders in title and body, each declared in variables' })
export class CreateV1TemplateInput {
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => String, { nullable: true }) title?: string | null;
  @Field(() => String, { nullable: true }) body?: string | null;
  @Field(() => String, { nullable: true }) channel?: string | null;
  @Field(() => [String], { nullable: true }) variables?: string[] | null;
}
