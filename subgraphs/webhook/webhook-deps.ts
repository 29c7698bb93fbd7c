import { ModuleStart } from '../../core/module';
import { DeliveryWorker } from './services/delivery-worker';
import { WebhookSettings } from './settings';

/** What the webhook services need besides a unit of work. */
export interface WebhookDeps {
  settings: WebhookSettings;
  /** This process's delivery worker (started with the domain, stopped with it). */
  worker: DeliveryWorker;
}

export function webhookDeps({ settings, orm, logger }: ModuleStart<WebhookSettings>): WebhookDeps {
  return { settings, worker: new DeliveryWorker(orm, settings, logger) };
}
