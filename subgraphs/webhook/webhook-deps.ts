import { Principal } from '../../core/auth/principal';
import { ModuleStart } from '../../core/module';
import { supergraphAs } from '../../core/supergraph-client';
import { DeliveryWorker } from './services/delivery-worker';
import { FanOut } from './services/fan-out';
import { PublicEventTable } from './services/public-event-table';
import { WebhookSettings } from './settings';

/** What the webhook services need besides a unit of work. */
export interface WebhookDeps extends FanOut {
  settings: WebhookSettings;
  /** This process's delivery worker (started with the domain, stopped with it). */
  worker: DeliveryWorker;
}

/**
 * The public events from the registry, and their lookups run on the gateway as the webhook domain's own
 * service principal, holding exactly what the producers' lookups declare they need.
 */
export function webhookDeps({ settings, orm, logger, publicEvents, config, gateway }: ModuleStart<WebhookSettings>): WebhookDeps {
  const table = new PublicEventTable(publicEvents);
  const client = supergraphAs(new Principal('service', 'internal:webhook', 'internal', [...table.lookupPermissions]), config, gateway);
  return { settings, worker: new DeliveryWorker(orm, settings, logger), publicEvents: table, lookup: (document, variables = {}) => client.run(document, variables) };
}
