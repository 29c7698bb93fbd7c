import type { PublishedEvent } from './outbox-event';

declare const PAYLOAD: unique symbol;

/**
 * An event type as a domain's contract declares it: its name (the string the outbox, the queues and
 * the consumers spell) carrying, for the compiler only, the payload it announces. Pure, so that any
 * domain may import a contract.
 */
export type EventType<Payload extends object = object> = string & { readonly [PAYLOAD]: Payload };

/** Declares an event type with its payload: `earned: event<PointLedgerEntry>('points.earned')`. */
export const event = <Payload extends object>(name: string): EventType<Payload> => name as EventType<Payload>;

/** The payload of a received event of one of these types (checked: another type throws), as the consumer's typed view. */
export function payloadOf<Payload extends object>(received: PublishedEvent<unknown>, ...types: [EventType<Payload>, ...EventType<Payload>[]]): Payload {
  if (!types.includes(received.type as EventType<Payload>)) throw new Error(`Expected a ${types.join(' or ')} event, received ${received.type}`);
  return received.data as Payload;
}
