import { Recipient } from '../notification-supergraph';

/**
 * A channel's refusal. `temporary`: the provider answered that it did not take the message now (busy,
 * rate limited, unreachable before sending): retried on the schedule. Otherwise the delivery fails for
 * good, including when the outcome is unknown (a timeout after the request left): never sent twice.
 */
export class ChannelFailure extends Error {
  constructor(
    message: string,
    readonly temporary: boolean,
  ) {
    super(message);
  }
}

/** One message to one recipient. */
export interface OutgoingMessage {
  deliveryId: string;
  notificationId: string;
  title: string;
  body: string;
  image: string | null;
  /** The tracked link to the notification's action_url (null without one). */
  actionUrl: string | null;
  priority: string;
}

/**
 * An external channel: resolves once the provider took the message; rejects with ChannelFailure
 * otherwise. `signal` aborts at the attempt's deadline: every provider call of the attempt stops then.
 */
export interface Channel {
  send(recipient: Recipient, message: OutgoingMessage, signal: AbortSignal): Promise<void>;
}

/** `work`, or a rejection with the signal's reason as soon as `signal` aborts (whatever `work` still does). */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Whether a network error means the request never reached the provider (safe to try again). */
export function neverSent(error: unknown): boolean {
  const code = (error as { code?: string; cause?: { code?: string } })?.cause?.code ?? (error as { code?: string })?.code;
  return code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ECONNECTION';
}
