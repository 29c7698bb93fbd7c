import { EntityManager } from '@mikro-orm/postgresql';
import PgBoss from 'pg-boss';
import { Principal } from '../../../core/auth/principal';
import { inTransaction } from '../../../core/events/job-queue';
import { FieldError, notFound, validationError } from '../../../core/errors';
import { isRecordId } from '../../../core/ids';
import { UrlSigner } from '../../../core/storage/signed-url';
import { ANALYTICS, REPORT_DOWNLOAD } from '../contract';
import { Report, ReportType } from '../entities/report';
import { GenerateReportInput, ReportView } from '../types/report.types';

export const REPORT_QUEUE = 'analytics.report';
/** What a client is told to expect while a report is processing. */
const ESTIMATE_MS = 60_000;

/** A bound of a report's period: a timestamp as given, a bare date its day's start (`from`) or end (`to`), UTC; none when left out or null. */
export function reportBound(value: string | null | undefined, end: boolean): Date | null | undefined {
  if (value == null) return null;
  const bare = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const time = Date.parse(bare ? `${value}T${end ? '23:59:59.999' : '00:00:00.000'}Z` : value);
  return Number.isNaN(time) ? undefined : new Date(time);
}

export interface ReportAccess {
  boss: PgBoss;
  signer: UrlSigner;
  publicUrl: string;
}

/** Reports: asked for (a job writes them), read with their signed download URL. */
export class ReportService {
  constructor(
    private readonly em: EntityManager,
    private readonly access: ReportAccess | undefined,
  ) {}

  private need(): ReportAccess {
    if (!this.access) throw new Error('The report service has no job queue');
    return this.access;
  }

  /** Records the report as processing and queues its job, in one transaction. */
  async generate(input: GenerateReportInput, caller: Principal): Promise<ReportView> {
    const errors: FieldError[] = [];
    const dateFrom = reportBound(input.dateFrom, false);
    const dateTo = reportBound(input.dateTo, true);
    if (dateFrom === undefined) errors.push({ field: 'dateFrom', message: 'date_from is not a valid date' });
    if (dateTo === undefined) errors.push({ field: 'dateTo', message: 'date_to is not a valid date' });
    if (dateFrom && dateTo && dateTo < dateFrom) errors.push({ field: 'dateTo', message: 'date_to is not before date_from' });
    if (errors.length > 0) throw validationError(errors);
    const { boss } = this.need();
    const report = await this.em.transactional(async (em) => {
      const created = em.create(Report, {
        type: input.type as ReportType,
        format: 'csv',
        dateFrom: dateFrom ?? null,
        dateTo: dateTo ?? null,
        filters: { segmentId: input.filters?.segmentId ?? null },
        requestedBy: caller.id,
      });
      await em.flush();
      await boss.send(REPORT_QUEUE, { reportId: created.id }, { db: inTransaction(em) });
      return created;
    });
    return this.view(report);
  }

  /** A report of the caller's, or any with analytics:manage; another's is not found (reports hold customers' e-mails and phones). */
  async get(id: string, caller: Principal): Promise<ReportView> {
    const report = isRecordId(id) ? await this.em.findOne(Report, { id }) : null;
    if (!report || (report.requestedBy !== caller.id && !caller.can(ANALYTICS.permissions.manage))) throw notFound('Report', id);
    return this.view(report);
  }

  private view(report: Report, now = new Date()): ReportView {
    const live = report.status === 'completed' && report.fileKey !== null && report.expiresAt !== null && report.expiresAt > now;
    const { signer, publicUrl } = this.need();
    return {
      reportId: report.id,
      type: report.type,
      format: report.format,
      status: report.status === 'completed' && !live ? 'expired' : report.status,
      downloadUrl: live ? signer.sign(publicUrl, REPORT_DOWNLOAD.path(report.id), report.expiresAt!) : null,
      estimatedCompletion: report.status === 'processing' ? new Date(report.createdAt.getTime() + ESTIMATE_MS) : report.completedAt,
      expiresAt: report.expiresAt,
      rowCount: report.rowCount === null ? null : Number(report.rowCount),
      createdAt: report.createdAt,
      completedAt: report.completedAt,
    };
  }
}
