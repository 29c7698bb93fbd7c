import { EntityManager, LockMode } from '@mikro-orm/postgresql';
import { FieldError, notFound, validationError } from '../../../core/errors';
import { CategoryPreferences, ChannelPreferences, NotificationPreference, QuietHours } from '../entities/notification-preference';
import { NotificationPreferences, UpdateNotificationPreferencesInput } from '../types/notification-preference.types';
import { NotificationSupergraph } from './notification-supergraph';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

export const DEFAULT_CHANNELS: ChannelPreferences = { chatapp: true, sms: true, email: true };
export const DEFAULT_CATEGORIES: CategoryPreferences = { promotions: true, loyalty: true, transactions: true, campaigns: true };
export const DEFAULT_QUIET_HOURS: QuietHours = { enabled: false, start: '22:00', end: '08:00', timezone: null };

/** Whether `zone` is an IANA time zone this runtime knows. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * A customer's notification preferences: channels, categories and quiet hours. Read as the defaults
 * until first changed; a PATCH changes only the keys it gives (each checked, every bad one named).
 */
export class NotificationPreferenceService {
  constructor(
    private readonly em: EntityManager,
    private readonly supergraph?: NotificationSupergraph,
  ) {}

  async get(customerId: string): Promise<NotificationPreferences> {
    await this.assertCustomer(customerId);
    const row = await this.em.findOne(NotificationPreference, { customerId: customerId.toLowerCase() });
    return row ? view(row) : { customerId, channels: { ...DEFAULT_CHANNELS }, categories: { ...DEFAULT_CATEGORIES }, quietHours: { ...DEFAULT_QUIET_HOURS }, updatedAt: null };
  }

  async update(customerId: string, input: UpdateNotificationPreferencesInput): Promise<NotificationPreferences> {
    const errors: FieldError[] = [];
    const channels = flags('channels', input.channels, Object.keys(DEFAULT_CHANNELS), errors);
    const categories = flags('categories', input.categories, Object.keys(DEFAULT_CATEGORIES), errors);
    const quietHours = quiet(input.quietHours, errors);
    if (errors.length > 0) throw validationError(errors);
    await this.assertCustomer(customerId);
    return this.em.transactional(async (em) => {
      const id = customerId.toLowerCase();
      // One row per customer, created on first change; concurrent first changes meet on the key.
      await em.execute(`insert into notification.preference (customer_id, channels, categories, quiet_hours, updated_at) values (?, ?, ?, ?, now()) on conflict do nothing`, [
        id,
        JSON.stringify(DEFAULT_CHANNELS),
        JSON.stringify(DEFAULT_CATEGORIES),
        JSON.stringify(DEFAULT_QUIET_HOURS),
      ]);
      const row = await em.findOneOrFail(NotificationPreference, { customerId: id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      row.channels = { ...DEFAULT_CHANNELS, ...row.channels, ...channels } as ChannelPreferences;
      row.categories = { ...DEFAULT_CATEGORIES, ...row.categories, ...categories } as CategoryPreferences;
      row.quietHours = { ...DEFAULT_QUIET_HOURS, ...row.quietHours, ...quietHours } as QuietHours;
      row.updatedAt = new Date();
      const merged = row.quietHours;
      if (merged.enabled && merged.start === merged.end) throw validationError([{ field: 'quietHours.end', message: 'quiet hours end differs from their start' }]);
      await em.flush();
      return view(row);
    });
  }

  private async assertCustomer(customerId: string): Promise<void> {
    const known = UUID.test(customerId) && this.supergraph ? (await this.supergraph.recipients([customerId.toLowerCase()])).size > 0 : UUID.test(customerId);
    if (!known) throw notFound('Member', customerId);
  }
}

const view = (row: NotificationPreference): NotificationPreferences => ({
  customerId: row.customerId,
  channels: { ...DEFAULT_CHANNELS, ...row.channels },
  categories: { ...DEFAULT_CATEGORIES, ...row.categories },
  quietHours: { ...DEFAULT_QUIET_HOURS, ...row.quietHours },
  updatedAt: row.updatedAt,
});

function flags(field: string, given: Record<string, unknown> | null | undefined, keys: string[], errors: FieldError[]): Record<string, boolean> {
  if (given == null) return {};
  const out: Record<string, boolean> = {};
  for (const [key, value] of Object.entries(given)) {
    if (!keys.includes(key)) errors.push({ field: `${field}.${key}`, message: `${key} is not one of ${keys.join(', ')}` });
    else if (typeof value !== 'boolean') errors.push({ field: `${field}.${key}`, message: `${key} is true or false` });
    else out[key] = value;
  }
  return out;
}

function quiet(given: Record<string, unknown> | null | undefined, errors: FieldError[]): Partial<QuietHours> {
  if (given == null) return {};
  const out: Partial<QuietHours> = {};
  for (const [key, value] of Object.entries(given)) {
    const field = `quietHours.${key}`;
    if (key === 'enabled') {
      if (typeof value === 'boolean') out.enabled = value;
      else errors.push({ field, message: 'enabled is true or false' });
    } else if (key === 'start' || key === 'end') {
      if (typeof value === 'string' && HHMM.test(value)) out[key] = value;
      else errors.push({ field, message: `${key} is a time HH:MM` });
    } else if (key === 'timezone') {
      if (value === null || (typeof value === 'string' && value.length <= 64 && isTimeZone(value))) out.timezone = value as string | null;
      else errors.push({ field, message: 'timezone is an IANA time zone such as Asia/Bangkok, or null (UTC)' });
    } else errors.push({ field, message: `${key} is not one of enabled, start, end, timezone` });
  }
  return out;
}
