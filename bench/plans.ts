import { Client } from 'pg';

/** One statement the server ran, with its plan as EXPLAIN (ANALYZE, BUFFERS) prints it. */
export interface LoggedPlan {
  query: string;
  plan: string[];
}

/**
 * The plans of every statement the platform runs, as the embedded PostgreSQL logs them with
 * auto_explain (log_analyze, log_buffers): exactly the SQL the ORM sent, with its parameters. Give
 * `onLog` to startEmbeddedPostgres; `enable` before the platform opens its connections (the settings
 * reach new sessions), `during` brackets the work whose plans to keep with markers.
 */
export class PlanLog {
  private text = '';
  private capturing = false;
  private waiting: { marker: string; resolve: () => void } | undefined;
  /** A session opened after `enable`, so that its markers are logged too. */
  private markers: Client | undefined;
  private marks = 0;

  readonly onLog = (chunk: string): void => {
    if (!this.capturing) return;
    this.text += chunk;
    if (this.waiting && this.text.includes(this.waiting.marker)) this.waiting.resolve();
  };

  constructor(private readonly databaseUrl: string) {}

  /** Every new session loads auto_explain and logs each statement's plan with its run time and buffers. */
  async enable(): Promise<void> {
    const settings = { log_min_duration: '0', log_analyze: 'on', log_buffers: 'on', log_timing: 'on', log_format: 'text' };
    await this.configure([`session_preload_libraries = 'auto_explain'`, ...Object.entries(settings).map(([name, value]) => `auto_explain.${name} = '${value}'`)]);
    this.markers = new Client({ connectionString: this.databaseUrl });
    await this.markers.connect();
    this.capturing = true;
  }

  /** Back to the server's own settings. */
  async disable(): Promise<void> {
    this.capturing = false;
    await this.markers?.end();
    this.markers = undefined;
    await this.configure(['session_preload_libraries', 'auto_explain.log_min_duration', 'auto_explain.log_analyze', 'auto_explain.log_buffers', 'auto_explain.log_timing', 'auto_explain.log_format'], true);
  }

  /** ALTER SYSTEM SET (or RESET) each setting, then reload: new sessions start with them. */
  private async configure(settings: string[], reset = false): Promise<void> {
    const client = new Client({ connectionString: this.databaseUrl });
    await client.connect();
    try {
      for (const setting of settings) await client.query(reset ? `alter system reset ${setting}` : `alter system set ${setting}`);
      await client.query('select pg_reload_conf()');
    } finally {
      await client.end();
    }
  }

  /** The plans of the statements on the domains' tables (not the outbox relay's or the job queue's polls) that ran while `work` did, once the log holds them. */
  async during(work: () => Promise<unknown>, timeoutMs = 10_000): Promise<LoggedPlan[]> {
    const mark = ++this.marks;
    const begin = `bench-plans-begin:${mark}`;
    const end = `bench-plans-end:${mark}`;
    const ended = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no server log within ${timeoutMs} ms: was the PostgreSQL server started by another process?`)), timeoutMs);
      this.waiting = { marker: end, resolve: () => (clearTimeout(timer), resolve()) };
    });
    this.text = '';
    if (!this.markers) throw new Error('PlanLog.during before enable');
    await this.markers.query(`select '${begin}'`);
    await work();
    await this.markers.query(`select '${end}'`);
    await ended;
    const text = this.text.slice(this.text.indexOf(begin), this.text.indexOf(end));
    return parsePlans(text).filter((plan) => /\b(auth|point|cluster|reward)"?\."?\w/.test(plan.query) && !/bench-plans-|outbox_event|pgboss\./.test(plan.query));
  }
}

const ENTRY = /^\S.*LOG:\s+duration: [\d.]+ ms\s+plan:\s*$/;

/** The auto_explain entries of a server log (text format): the query text, then the plan's lines. */
export function parsePlans(text: string): LoggedPlan[] {
  const entries: Array<{ query: string[]; plan: string[] }> = [];
  let current: { query: string[]; plan: string[] } | undefined;
  for (const line of text.split('\n')) {
    if (ENTRY.test(line)) {
      current = { query: [], plan: [] };
      entries.push(current);
    } else if (current && line.startsWith('\t')) {
      const content = line.slice(1);
      if (current.plan.length === 0 && !content.includes('(cost=')) current.query.push(content.replace(/^Query Text: /, ''));
      else current.plan.push(content);
    } else {
      current = undefined;
    }
  }
  return entries.map((entry) => ({ query: entry.query.join(' ').replace(/\s+/g, ' ').trim(), plan: entry.plan }));
}

/** The big tables, which a plan must never read whole. */
export const BIG_TABLES = ['member', 'point_transaction', 'point_lot', 'point_balance', 'tier_projection', 'tier_history', 'reward_code', 'redemption'];

/** What a plan reads: each scan node (`Index Only Scan using x on t`), and the problems (a Seq Scan of a big table). */
export function scansOf(plan: LoggedPlan): { scans: string[]; problems: string[] } {
  const scans = plan.plan.flatMap((line) => {
    const match = /((?:Parallel )?(?:Seq Scan|Index Only Scan(?: Backward)?|Index Scan(?: Backward)?|Bitmap Index Scan|Bitmap Heap Scan)(?: using \S+)? on \S+)/.exec(line);
    return match ? [match[1]] : [];
  });
  const problems = scans.filter((scan) => {
    const table = /Seq Scan on (?:\w+\.)?(\w+)/.exec(scan)?.[1];
    return table !== undefined && BIG_TABLES.includes(table);
  });
  return { scans, problems };
}
