import { IsUUID } from 'class-validator';
import { ArgsType, Field, ID } from 'type-graphql';

/** The `id` argument of operations on one record: a UUID, or 400 on `id`. */
@ArgsType()
export class IdArgs {
  @Field(() => ID) @IsUUID() id: string;
}
