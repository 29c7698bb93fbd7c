import { join } from 'node:path';
import { Logger } from '../logger';
import { FileOutbox } from './mailer';

export interface SmsSender {
  /** `reference`: the sender's id of the message, for a gateway that deduplicates; `signal` stops the call. */
  send(phoneNumber: string, text: string, reference?: string, signal?: AbortSignal): Promise<void>;
}

/** The default SMS provider: no gateway is configured, so messages go to the local outbox. */
export function createSmsSender(dataDir: string, logger: Logger): SmsSender {
  const outbox = new FileOutbox(join(dataDir, 'outbox'), 'sms.jsonl', logger);
  return { send: (phoneNumber, text) => outbox.send({ to: phoneNumber, subject: 'SMS', text }) };
}
