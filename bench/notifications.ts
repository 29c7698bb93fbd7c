import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { Target } from './load';

/** Members of the segment the notification goes to. */
const MEMBERS = Number(process.env.BENCH_NOTIFY_MEMBERS ?? 100_000);
/** Rows per seeding statement. */
const SEED_BATCH = 10_000;
/** Past this, the send is reported unfinished. */
const DEADLINE_MS = Number(process.env.BENCH_NOTIFY_DEADLINE_SECONDS ?? 1800) * 1000;

/** Recipients per transaction in the baseline, the sender's default batch. */
const BASELINE_BATCH = 500;

/**
 * The baseline, in the same process: the floor of the send's work, the same segment's members read in
 * pages and one in-app row each inserted in transactions of BASELINE_BATCH, straight in SQL, into a table
 * shaped (and indexed) like the in-app table, dropped after. No outbox, no delivery rows, no counters.
 */
async function sqlSend(pool: Pool, segmentId: string): Promise<{ seconds: number; rows: number }> {
  const table = `public.bench_in_app_${randomUUID().replace(/-/g, '')}`;
  await pool.query(`create table ${table} (like notification.in_app_notification including all)`);
  try {
    const started = Date.now();
    let rows = 0;
    for (let after = '00000000-0000-0000-0000-000000000000'; ; ) {
      const { rows: page } = await pool.query(`select member_id from cluster.segment_member where segment_id = $1 and member_id > $2 order by member_id limit $3`, [segmentId, after, BASELINE_BATCH]);
      if (page.length === 0) break;
      const inserted = await pool.query(
        `insert into ${table} (id, member_id, title_en, content_en, type, metadata, created_at, updated_at)
         select gen_random_uuid(), member_id, 'Bench news', 'One for everyone', 'news', '{}'::jsonb, now(), now() from unnest($1::uuid[]) as member_id`,
        [page.map((row) => row.member_id)],
      );
      rows += inserted.rowCount ?? 0;
      after = page[page.length - 1].member_id;
    }
    return { seconds: (Date.now() - started) / 1000, rows };
  } finally {
    await pool.query(`drop table ${table}`);
  }
}

/**
 * `notify`: a v1 send-to-segment over in_app to a manual segment of MEMBERS members (seeded straight into
 * auth and cluster). Reports how long the request took to answer, the time from the request to the
 * notification's `completed` and recipients per second. FAIL unless every member got exactly one in-app
 * notification and the counters say so.
 */
export async function notificationSegmentSend(target: Target, pool: Pool): Promise<boolean> {
  const headers = { authorization: `Bearer ${target.token}`, 'content-type': 'application/json' };
  const segment = await fetch(`${target.restUrl}/cluster/api/segments`, { method: 'POST', headers, body: JSON.stringify({ name_en: `Bench segment ${randomUUID()}`, type: 'manual' }) });
  if (segment.status !== 201) throw new Error(`segment: ${segment.status} ${await segment.text()}`);
  const segmentId = ((await segment.json()) as any).data.data.id as string;
  const seedStarted = Date.now();
  for (let offset = 0; offset < MEMBERS; offset += SEED_BATCH) {
    const ids = Array.from({ length: Math.min(SEED_BATCH, MEMBERS - offset) }, () => randomUUID());
    await pool.query(`insert into auth.member (id, name, status, created_at, updated_at) select id, 'Bench recipient', 'ACTIVE', now(), now() from unnest($1::uuid[]) as id`, [ids]);
    await pool.query(`insert into cluster.segment_member (segment_id, member_id) select $1, id from unnest($2::uuid[]) as id`, [segmentId, ids]);
  }
  const seedSeconds = (Date.now() - seedStarted) / 1000;

  const started = Date.now();
  const sent = await fetch(`${target.restUrl}/api/v1/notifications/send-to-segment`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ segment_id: segmentId, title: 'Bench news', body: 'One for everyone', channel: 'in_app' }),
  });
  const answeredMs = Date.now() - started;
  if (sent.status !== 202) throw new Error(`send: ${sent.status} ${await sent.text()}`);
  const { notification_id: id, total_recipients: announced } = ((await sent.json()) as any).data;
  let row: { status: string; delivered: number; failed: number; total_recipients: number } | undefined;
  while (Date.now() - started < DEADLINE_MS) {
    [row] = (await pool.query(`select status, delivered, failed, total_recipients from notification.v1_notification where id = $1`, [id])).rows;
    if (row?.status === 'completed') break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const seconds = (Date.now() - started) / 1000;
  const [copies] = (await pool.query(`select count(*)::int as total, count(distinct member_id)::int as members from notification.in_app_notification where metadata->>'notificationId' = $1`, [id])).rows;

  console.log(`\nnotify: send-to-segment over in_app to ${MEMBERS} members (seeded in ${seedSeconds.toFixed(1)} s)\n`);
  console.log(`request answered (202)          ${answeredMs} ms, total_recipients ${announced}`);
  console.log(`request to completed            ${seconds.toFixed(1)} s (status ${row?.status})`);
  console.log(`recipients per second           ${((row?.delivered ?? 0) / seconds).toFixed(0)}`);
  console.log(`counters                        delivered ${row?.delivered}, failed ${row?.failed}, total ${row?.total_recipients}; in-app copies ${copies.total} for ${copies.members} members`);
  const baseline = await sqlSend(pool, segmentId);
  console.log(`baseline: in-app rows alone (pg)  ${baseline.seconds.toFixed(1)} s, ${(baseline.rows / baseline.seconds).toFixed(0)} recipients per second (${baseline.rows} rows)`);
  console.log(`platform / baseline              recipients per second ${(((row?.delivered ?? 0) / seconds) / (baseline.rows / baseline.seconds)).toFixed(3)}`);
  const passed = row?.status === 'completed' && row.delivered === MEMBERS && copies.total === MEMBERS && copies.members === MEMBERS && baseline.rows === MEMBERS;
  if (!passed) console.log('FAIL: the send did not complete with exactly one in-app notification per member');
  return passed;
}
