import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';

export const REPORT_TYPES = ['customers', 'points', 'transactions', 'campaigns', 'rewards'] as const;
export type ReportType = (typeof REPORT_TYPES)[number];
export type ReportStatus = 'processing' | 'completed' | 'failed' | 'expired';

/** A CSV report asked for by staff: written by a job into object storage, removed when it expires. */
@Entity({ tableName: 'report' })
export class Report {
  [OptionalProps]?: 'id' | 'status' | 'fileKey' | 'rowCount' | 'error' | 'createdAt' | 'completedAt' | 'expiresAt';

  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Property({ type: 'text' }) type: ReportType;
  @Property({ type: 'text' }) format: 'csv';
  @Property({ type: 'text' }) status: ReportStatus = 'processing';
  @Property({ type: 'timestamptz', nullable: true }) dateFrom: Date | null;
  @Property({ type: 'timestamptz', nullable: true }) dateTo: Date | null;
  @Property({ type: 'jsonb' }) filters: { segmentId?: string | null };
  /** Who asked (the principal's id). */
  @Property({ type: 'text' }) requestedBy: string;
  @Property({ type: 'text', nullable: true }) fileKey: string | null = null;
  @Property({ type: 'bigint', nullable: true }) rowCount: string | null = null;
  @Property({ type: 'text', nullable: true }) error: string | null = null;
  @Property({ type: 'timestamptz' }) createdAt: Date = new Date();
  @Property({ type: 'timestamptz', nullable: true }) completedAt: Date | null = null;
  /** When the file and its download URL stop working (ANALYTICS_REPORT_TTL_HOURS after completion). */
  @Property({ type: 'timestamptz', nullable: true }) expiresAt: Date | null = null;
}
