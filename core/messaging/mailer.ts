import { appendFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import { Logger } from '../logger';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  /** An HTML version, sent beside the text one. */
  html?: string;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
}

/** Sends through the SMTP server of SMTP_URL. */
export class SmtpMailer implements Mailer {
  private readonly transport;

  constructor(smtpUrl: string, private readonly from: string) {
    this.transport = nodemailer.createTransport(smtpUrl);
  }

  async send(mail: OutgoingMail): Promise<void> {
    await this.transport.sendMail({ from: this.from, ...mail });
  }
}

/** Without SMTP: appends each message to a file under DATA_DIR and logs it, so a local user can read it. */
export class FileOutbox implements Mailer {
  constructor(
    private readonly directory: string,
    private readonly file: string,
    private readonly logger: Logger,
  ) {}

  async send(message: OutgoingMail): Promise<void> {
    await mkdir(this.directory, { recursive: true });
    const path = join(this.directory, this.file);
    await appendFile(path, `${JSON.stringify({ at: new Date().toISOString(), ...message })}\n`);
    this.logger.info({ to: message.to, subject: message.subject, outbox: path }, 'message written to the local outbox');
  }
}

export function createMailer(smtpUrl: string | undefined, from: string, dataDir: string, logger: Logger): Mailer {
  return smtpUrl ? new SmtpMailer(smtpUrl, from) : new FileOutbox(join(dataDir, 'outbox'), 'mail.jsonl', logger);
}
