import { EntityManager } from '@mikro-orm/postgresql';
import { RequestContext } from '../../core/context';
import { WebhookService } from './services/webhook.service';
import { WebhookDeps } from './webhook-deps';

/** The webhook services of one request, on its unit of work. */
export function webhookServices(em: EntityManager, deps?: WebhookDeps) {
  return {
    webhooks: new WebhookService(em, { allowPrivateTargets: deps?.settings.allowPrivateTargets ?? false }, deps?.publicEvents.types ?? new Set(), () => deps?.worker.wake()),
  };
}

export type WebhookContext = RequestContext<ReturnType<typeof webhookServices>>;
