import { V1_ANALYTICS_OPERATIONS } from './v1-analytics';
import { V1_BOOKING_OPERATIONS } from './v1-bookings';
import { V1_CAMPAIGN_OPERATIONS } from './v1-campaigns';

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
  V1_ANALYTICS_OPERATIONS,
  V1_BOOKING_OPERATIONS,
  V1_CAMPAIGN_OPERATIONS,
);
