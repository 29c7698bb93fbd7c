import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer, { SendMailOptions } from 'nodemailer';
import { Logger } from '../logger';
import { PRIVATE_FILE_MODE, privateDirectory } from '../private-files';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  /** An HTML version, sent beside the text one. */
  html?: string;
}

export interface Mailer {
  /** `signal` abandons the sending (the connection is closed). */
  send(mail: OutgoingMail, signal?: AbortSignal): Promise<void>;
}

/**
 * Sends through the SMTP server of SMTP_URL. `timeoutMs`, when given, bounds connecting, the greeting
 * and each wait for the server (nodemailer's defaults: 2 minutes, 30 seconds, 10 minutes).
 */
export class SmtpMailer implements Mailer {
  private readonly transport;

  constructor(smtpUrl: string, private readonly from: string, timeoutMs?: number) {
    this.transport = nodemailer.createTransport(timeoutMs ? { url: smtpUrl, connectionTimeout: timeoutMs, greetingTimeout: timeoutMs, socketTimeout: timeoutMs } : smtpUrl);
  }

  async send(mail: OutgoingMail, signal?: AbortSignal): Promise<void> {
    // nodemailer takes `signal` (it closes the connection); its type definitions do not know it yet.
    const options: SendMailOptions = { from: this.from, ...mail, ...(signal ? { signal } : {}) };
    await this.transport.sendMail(options);
  }
}

/** Without SMTP: appends each message to a file under DATA_DIR (owner-only: it holds live reset codes) and logs it, so a local user can read it. */
export class FileOutbox implements Mailer {
  constructor(
    private readonly directory: string,
    private readonly file: string,
    private readonly logger: Logger,
  ) {}

  async send(message: OutgoingMail): Promise<void> {
    await privateDirectory(this.directory);
    const path = join(this.directory, this.file);
    await appendFile(path, `${JSON.stringify({ at: new Date().toISOString(), ...message })}\n`, { mode: PRIVATE_FILE_MODE });
    this.logger.info({ to: message.to, subject: message.subject, outbox: path }, 'message written to the local outbox');
  }
}

export function createMailer(smtpUrl: string | undefined, from: string, dataDir: string, logger: Logger, timeoutMs?: number): Mailer {
  return smtpUrl ? new SmtpMailer(smtpUrl, from, timeoutMs) : new FileOutbox(join(dataDir, 'outbox'), 'mail.jsonl', logger);
}
