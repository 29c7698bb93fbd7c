import { MikroORM } from '@mikro-orm/core';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { stringify } from 'csv-stringify';
import { Readable } from 'node:stream';
import { Logger } from '../../../core/logger';
import { ObjectStorage } from '../../../core/storage/object-storage';
import { REPORT_DOWNLOAD } from '../contract';
import { Report, ReportType } from '../entities/report';
import { AnalyticsSupergraph } from './analytics-supergraph';
import { reportColumns, reportNumberColumns, reportRows } from './report-rows';

const HOUR_MS = 3600 * 1000;

export interface ReportWriting {
  orm: MikroORM<PostgreSqlDriver>;
  storage: ObjectStorage;
  supergraph: AnalyticsSupergraph;
  ttlHours: number;
  logger: Logger;
}

/**
 * A report's CSV writer: a header row, RFC 4180 quoting, and every text cell a spreadsheet would run as a
 * formula (a leading `=`, `+`, `-`, `@`, tab or carriage return: OWASP's CSV injection) written inert,
 * prefixed with `'`. Number columns are left as they are: `-25` points is a number, not a formula.
 */
function reportCsv(type: ReportType) {
  const numbers = reportNumberColumns(type);
  return stringify({
    header: true,
    columns: reportColumns(type),
    escape_formulas: true,
    cast: { string: (value, { column, header }) => (!header && numbers.has(column as number) && value.startsWith('-') ? { value, escape_formulas: false } : value) },
  });
}

/**
 * Writes a processing report: its rows streamed from the read model through `reportCsv` into object
 * storage, so memory stays bounded whatever the
 * number of rows; then marks it completed, expiring `ttlHours` later. A report that cannot be written is
 * marked failed with the reason (an unknown segment) or left to the job's retries (anything else: the
 * job marks it failed after its last try, `markReportFailed`).
 */
export async function writeReport(writing: ReportWriting, reportId: string): Promise<void> {
  const em = writing.orm.em.fork();
  const report = await em.findOne(Report, { id: reportId });
  if (!report || report.status !== 'processing') return;
  let customerIds: string[] | null = null;
  if (report.filters.segmentId) {
    const segment = await writing.supergraph.segment(report.filters.segmentId);
    if (!segment) {
      await markReportFailed(writing.orm, report.id, 'segment_id is not a live segment');
      return;
    }
    customerIds = await writing.supergraph.memberIds(segment.id);
  }
  let rows = 0;
  const counted = async function* (source: AsyncGenerator<unknown[]>) {
    for await (const row of source) {
      rows += 1;
      yield row;
    }
  };
  const csv = reportCsv(report.type);
  const source = Readable.from(counted(reportRows(em, report.type, { from: report.dateFrom, to: report.dateTo, customerIds })));
  // A failing read fails the write (and the job); `pipe` alone would leave the file waiting.
  source.on('error', (error) => csv.destroy(error));
  source.pipe(csv);
  const key = REPORT_DOWNLOAD.file(report.id);
  await writing.storage.write(key, csv);
  const completedAt = new Date();
  await em.nativeUpdate(Report, { id: report.id }, { status: 'completed', fileKey: key, rowCount: String(rows), completedAt, expiresAt: new Date(completedAt.getTime() + writing.ttlHours * HOUR_MS) });
  writing.logger.info({ reportId: report.id, type: report.type, rows }, 'report written');
}

/** Marks a report that is still processing failed, with the reason (kept for the operators; not answered). */
export async function markReportFailed(orm: MikroORM<PostgreSqlDriver>, reportId: string, error: string): Promise<void> {
  await orm.em.fork().nativeUpdate(Report, { id: reportId, status: 'processing' }, { status: 'failed', error, completedAt: new Date() });
}

/** Removes the files of expired reports (the rows stay, answered as `expired`). */
export async function removeExpiredReports(writing: Pick<ReportWriting, 'orm' | 'storage'>, now = new Date()): Promise<number> {
  const em = writing.orm.em.fork();
  const expired = await em.find(Report, { fileKey: { $ne: null }, expiresAt: { $lte: now } }, { limit: 1000 });
  for (const report of expired) {
    await writing.storage.remove(report.fileKey!);
    await em.nativeUpdate(Report, { id: report.id }, { fileKey: null, status: 'expired' });
  }
  return expired.length;
}
