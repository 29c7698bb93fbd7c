import { Locale } from '../../../../core/i18n';
import { Mailer } from '../../../../core/messaging/mailer';
import { AppError } from '../../../../core/errors';
import { MailTemplateService } from '../mail-template.service';
import { Recipient } from '../notification-supergraph';
import { Channel, ChannelFailure, neverSent, OutgoingMessage } from './channel';

/** The mail template event of v1 notification e-mails (variables: title, body, image, actionUrl, name). */
export const NOTIFICATION_MAIL_EVENT = 'notification.v1';

/**
 * E-mail over SMTP (SMTP_URL; the local outbox without it). The newest mail template of event
 * `notification.v1` shapes the mail when there is one; else the title is the subject and the body the
 * text. SMTP 4xx and a refused connection are temporary; 5xx and anything after the data left are final.
 * The mailer's own timeouts are NOTIFY_CHANNEL_TIMEOUT_MS; `signal` closes the connection at the deadline.
 */
export class EmailChannel implements Channel {
  constructor(
    private readonly mailer: Mailer,
    private readonly templates: () => MailTemplateService,
  ) {}

  async send(recipient: Recipient, message: OutgoingMessage, signal: AbortSignal): Promise<void> {
    if (!recipient.email) throw new ChannelFailure('the customer has no e-mail address', false);
    const variables = { title: message.title, body: message.body, image: message.image, actionUrl: message.actionUrl, name: recipient.name };
    let mail = { subject: message.title, text: message.actionUrl ? `${message.body}\n\n${message.actionUrl}` : message.body, html: undefined as string | undefined };
    try {
      const rendered = await this.templates().renderForEvent(NOTIFICATION_MAIL_EVENT, undefined, Locale.en, variables);
      mail = rendered.contentType === 'html'
        ? { subject: rendered.subject, text: rendered.content.replace(/<[^>]*>/g, ''), html: rendered.content }
        : { subject: rendered.subject, text: rendered.content, html: undefined };
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'NOT_FOUND')) throw new ChannelFailure(`mail template: ${(error as Error).message}`, false);
    }
    try {
      await this.mailer.send({ to: recipient.email, subject: mail.subject, text: mail.text, ...(mail.html ? { html: mail.html } : {}) }, signal);
    } catch (error) {
      const responseCode = (error as { responseCode?: number }).responseCode;
      const temporary = (responseCode !== undefined && responseCode >= 400 && responseCode < 500) || neverSent(error);
      throw new ChannelFailure(`smtp: ${String((error as Error).message).slice(0, 200)}`, temporary);
    }
  }
}
