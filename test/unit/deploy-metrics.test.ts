import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { databaseMetrics } from '../../core/database-metrics';
import { registry } from '../../core/metrics';

const DEPLOY = join(__dirname, '..', '..', 'deploy');
/** Our metrics' names start so (PromQL's functions, labels and keywords do not). */
const OURS = /^(http_|graphql_|rate_limit_|outbox_|job_queue_|dead_letters|db_pool_|webhook_|notification_|process_|nodejs_)/;

/** Every series name /metrics can show: each metric, and a histogram's _bucket, _sum and _count. */
function exportedNames(): Set<string> {
  // Never scraped here: its pool connects only when a scrape collects.
  const database = databaseMetrics('postgres://127.0.0.1:9/unused');
  void database.close();
  const metrics = [...registry.getMetricsAsArray(), ...database.registry.getMetricsAsArray()];
  return new Set(metrics.flatMap((metric) => {
    const { name, type } = metric as unknown as { name: string; type: string };
    return type === 'histogram' ? [name, `${name}_bucket`, `${name}_sum`, `${name}_count`] : [name];
  }));
}

/** The metric names a PromQL expression uses. */
const namesIn = (expr: string): string[] => (expr.match(/[a-zA-Z_:][a-zA-Z0-9_:]*/g) ?? []).filter((token) => OURS.test(token));

const alertRules = readFileSync(join(DEPLOY, 'prometheus', 'alerts.yml'), 'utf8');
const ruleExprs = [...alertRules.matchAll(/^\s+expr: (.+)$/gm)].map((match) => match[1]);
const dashboard = JSON.parse(readFileSync(join(DEPLOY, 'grafana', 'loyalty-platform.json'), 'utf8'));
const panelExprs: string[] = dashboard.panels.flatMap((panel: { targets: Array<{ expr: string }> }) => panel.targets.map((target) => target.expr));

describe('deploy/: the alert rules and the dashboard', () => {
  it('use only metrics that /metrics exports, in every rule and every panel', () => {
    const exported = exportedNames();
    expect(ruleExprs.length).toBeGreaterThanOrEqual(6);
    expect(panelExprs.length).toBeGreaterThanOrEqual(12);
    for (const expr of [...ruleExprs, ...panelExprs]) {
      expect(namesIn(expr).length).toBeGreaterThan(0);
      for (const name of namesIn(expr)) expect({ expr, name, exported: exported.has(name) }).toEqual({ expr, name, exported: true });
    }
  });

  it('alert on outbox and queue lag, dead letters, failing webhooks, the 5xx rate and pool saturation, each with its summary', () => {
    const alerts = [...alertRules.matchAll(/^\s+- alert: (\w+)$/gm)].map((match) => match[1]);
    expect(alerts).toEqual(['OutboxLagging', 'JobQueueLagging', 'DeadLettersPresent', 'WebhookDeliveriesFailing', 'HighServerErrorRate', 'DatabasePoolSaturated']);
    expect([...alertRules.matchAll(/^\s+summary: /gm)]).toHaveLength(alerts.length);
    expect([...alertRules.matchAll(/^\s+severity: (warning|critical)$/gm)]).toHaveLength(alerts.length);
  });

  it('show every metric the platform exports beyond the process ones in some panel', () => {
    const shown = new Set(panelExprs.flatMap(namesIn).map((name) => name.replace(/_(bucket|sum|count)$/, '')));
    const ours = [...exportedNames()].filter((name) => OURS.test(name) && !/^(process_|nodejs_)/.test(name) && !/_(bucket|sum|count)$/.test(name));
    expect(ours.filter((name) => !shown.has(name))).toEqual([]);
  });
});
