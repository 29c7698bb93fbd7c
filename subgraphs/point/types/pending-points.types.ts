import { IsEnum, IsOptional, IsUUID } from 'class-validator';
import { ArgsType, Field, ID } from 'type-graphql';
import { PageArgs } from '../../../core/pagination';
import { PendingStatus } from '../entities/pending-points';

@ArgsType()
export class PendingPointsListArgs extends PageArgs {
  @Field(() => ID) @IsUUID('all', { message: 'memberId must be a member id' }) memberId: string;
  @Field(() => PendingStatus, { nullable: true }) @IsOptional() @IsEnum(PendingStatus) status?: PendingStatus;
}
