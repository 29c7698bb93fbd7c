import { SeedContext } from './context';
import { ensureNamed, idsBy } from './ensure';
import { DemoApiError } from './graphql-client';

/**
 * A webhook for every event to the given receiver, found by its URL. The platform refuses http and
 * loopback targets unless it runs with WEBHOOK_ALLOW_PRIVATE_TARGETS=true (local work): that refusal
 * is counted and explained, the rest of the demo stands.
 */
export async function seedWebhook({ client, tally, log }: SeedContext, url: string): Promise<void> {
  const existing = idsBy(await client.listAll<{ id: string; url: string }>('webhooks', 'id url'), 'url');
  try {
    await ensureNamed(tally, 'webhooks', [url], (target) => target, existing, (target) => client.create('createWebhook', 'CreateWebhookInput', { url: target, events: ['*'] }));
  } catch (error) {
    if (!(error instanceof DemoApiError && error.code === 'VALIDATION')) throw error;
    tally.note('webhooks', 'refused');
    log(`webhook to ${url} refused: ${error.message}; start the platform with WEBHOOK_ALLOW_PRIVATE_TARGETS=true for a local receiver, or set DEMO_WEBHOOK_URL to a public https URL`);
  }
}
