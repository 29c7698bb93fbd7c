import { AUTH_OPERATIONS } from './auth';
import { CLUSTER_OPERATIONS } from './cluster';
import { NOTIFICATION_OPERATIONS } from './notification';
import { MAIL_TEMPLATE_OPERATIONS } from './notification-mail-templates';
import { POINT_OPERATIONS } from './point';
import { REWARD_OPERATIONS } from './reward';
import { V1_CUSTOMER_OPERATIONS } from './v1-customers';
import { V1_LOYALTY_OPERATIONS } from './v1-loyalty';
import { V1_AUTH_OPERATIONS } from './v1-auth';
import { V1_TRANSACTION_OPERATIONS } from './v1-transactions';
import { OAUTH_OPERATIONS } from './oauth';
import { V1_WEBHOOK_OPERATIONS } from './v1-webhooks';
import { V1_NOTIFICATION_OPERATIONS } from './v1-notifications';

/** The groups merged by name; a name given twice throws at load, where a spread would let one replace the other. */
function byName(...groups: Array<Record<string, string>>): Record<string, string> {
  const all: Record<string, string> = {};
  for (const group of groups) {
    for (const [name, document] of Object.entries(group)) {
      if (name in all) throw new Error(`Two REST operations are named ${name}`);
      all[name] = document;
    }
  }
  return all;
}

/** Every operation the REST adapter runs, by name. */
export const OPERATIONS: Record<string, string> = byName(
  AUTH_OPERATIONS,
  POINT_OPERATIONS,
  CLUSTER_OPERATIONS,
  REWARD_OPERATIONS,
  NOTIFICATION_OPERATIONS,
  MAIL_TEMPLATE_OPERATIONS,
  V1_CUSTOMER_OPERATIONS,
  V1_LOYALTY_OPERATIONS,
  V1_AUTH_OPERATIONS,
  V1_TRANSACTION_OPERATIONS,
  OAUTH_OPERATIONS,
  V1_WEBHOOK_OPERATIONS,
  V1_NOTIFICATION_OPERATIONS,
);
