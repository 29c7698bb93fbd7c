import { EntityManager } from '@mikro-orm/postgresql';
import { AppError, notFound } from '../../../core/errors';
import { arrayLiteral } from '../../../core/db/array-literal';
import { ClickTracking } from './click-tracking';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Counts the in-app copies of v1 notifications read for the first time as opened, in the caller's
 * transaction (the read's): each delivery once, whatever the reads after.
 */
export async function recordOpened(em: EntityManager, inAppIds: string[]): Promise<void> {
  if (inAppIds.length === 0) return;
  await em.execute(
    `with opened as (
       update notification.delivery set opened_at = now(), updated_at = now()
        where in_app_id = any(?::uuid[]) and opened_at is null returning notification_id)
     update notification.v1_notification n set opened = opened + c.count, updated_at = now()
       from (select notification_id, count(*)::int as count from opened group by notification_id) c where n.id = c.notification_id`,
    [arrayLiteral(inAppIds)],
  );
}

/** Opens and clicks of v1 notifications: the tracked link of a delivery. */
export class EngagementService {
  constructor(
    private readonly em: EntityManager,
    private readonly tracking?: ClickTracking,
  ) {}

  /**
   * A click on a delivery's tracked link: counts the first click (and an open, if none was counted),
   * and answers the notification's action_url. A link not signed by us is 404.
   */
  async click(deliveryId: string, signature: string): Promise<string> {
    if (!UUID.test(deliveryId) || !this.tracking?.verify(deliveryId, signature)) throw notFound('Notification link');
    return this.em.transactional(async (em) => {
      const [row] = await em.execute<Array<{ notification_id: string; clicked_at: Date | null; opened_at: Date | null; action_url: string | null }>>(
        `select d.notification_id, d.clicked_at, d.opened_at, n.action_url from notification.delivery d
           join notification.v1_notification n on n.id = d.notification_id where d.id = ? for update of d`,
        [deliveryId],
      );
      if (!row) throw notFound('Notification link');
      if (!row.action_url) throw new AppError('NOT_FOUND', 'This notification has no link');
      if (!row.clicked_at) {
        await em.execute(`update notification.delivery set clicked_at = now(), opened_at = coalesce(opened_at, now()), updated_at = now() where id = ?`, [deliveryId]);
        await em.execute(`update notification.v1_notification set clicked = clicked + 1, opened = opened + ?, updated_at = now() where id = ?`, [row.opened_at ? 0 : 1, row.notification_id]);
      }
      return row.action_url;
    });
  }
}
