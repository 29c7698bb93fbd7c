import { IsIn, IsOptional, IsUUID, ValidateNested } from 'class-validator';
import { Field, Float, ID, InputType, ObjectType } from 'type-graphql';
import { REPORT_TYPES } from '../entities/report';
import { IsDayOrTimestamp } from './analytics.types';

@InputType()
export class ReportFiltersInput {
  @Field(() => ID, { nullable: true, description: "Only the segment's members (as the segment is when the report is written)" })
  @IsOptional()
  @IsUUID('all', { message: 'segment_id is a segment id' })
  segmentId?: string | null;
}

@InputType()
export class GenerateReportInput {
  @Field(() => String, { description: REPORT_TYPES.join(', ') }) @IsIn(REPORT_TYPES, { message: `type must be one of ${REPORT_TYPES.join(', ')}` }) type: string;
  @Field(() => String, { nullable: true, description: 'csv (the default and only format)' }) @IsOptional() @IsIn(['csv'], { message: 'format must be csv' }) format?: string;
  @Field(() => String, { nullable: true, description: 'Rows from this day or time (registration, entry, purchase, campaign start, claim)' })
  @IsOptional()
  @IsDayOrTimestamp('date_from')
  dateFrom?: string;
  @Field(() => String, { nullable: true, description: 'Rows up to this day (a bare date covers its day) or time' })
  @IsOptional()
  @IsDayOrTimestamp('date_to')
  dateTo?: string;
  @Field(() => ReportFiltersInput, { nullable: true }) @IsOptional() @ValidateNested() filters?: ReportFiltersInput | null;
}

@ObjectType({ description: 'A CSV report: processing, then completed with a signed download URL until expires_at (or failed, or expired)' })
export class ReportView {
  @Field(() => ID) reportId: string;
  @Field(() => String) type: string;
  @Field(() => String) format: string;
  @Field(() => String, { description: 'processing, completed, failed or expired' }) status: string;
  @Field(() => String, { nullable: true, description: 'Works without a token until expires_at; null until completed' }) downloadUrl: string | null;
  @Field(() => Date, { nullable: true, description: 'When the report should be ready (while processing)' }) estimatedCompletion: Date | null;
  @Field(() => Date, { nullable: true }) expiresAt: Date | null;
  @Field(() => Float, { nullable: true, description: 'Rows written (the header not counted); a whole number (Float: it may pass 2^31)' }) rowCount: number | null;
  @Field(() => Date) createdAt: Date;
  @Field(() => Date, { nullable: true }) completedAt: Date | null;
}
