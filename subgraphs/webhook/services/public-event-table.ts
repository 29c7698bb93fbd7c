import { PublicEvent } from '../../../core/rest/surface';

/** What a webhook subscribes to for every event type. */
export const ALL_EVENTS = '*';

/**
 * The platform's public events as the webhook domain serves them, from the registry's surfaces (given
 * at start): each internal type's Part 3 event, and the Part 3 types a webhook may subscribe to.
 */
export class PublicEventTable {
  private readonly byInternal: ReadonlyMap<string, PublicEvent>;
  /** The Part 3 event types (`customer.created`, ...). */
  readonly types: ReadonlySet<string>;
  /** The internal event types that are public: what the fan-out consumes. */
  readonly internalTypes: readonly string[];
  /** What the fan-out's gateway caller must hold for the events' lookups. */
  readonly lookupPermissions: readonly string[];

  constructor(events: readonly PublicEvent[]) {
    this.byInternal = new Map(events.map((event) => [event.internal, event]));
    this.types = new Set(events.map((event) => event.type));
    this.internalTypes = events.map((event) => event.internal);
    this.lookupPermissions = [...new Set(events.flatMap((event) => event.lookupPermissions ?? []))];
  }

  /** The public event of an internal type; undefined: not delivered. */
  of(internalType: string): PublicEvent | undefined {
    return this.byInternal.get(internalType);
  }
}
