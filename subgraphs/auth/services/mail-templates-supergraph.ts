import { AccessTokens } from '../../../core/auth/jwt';
import { Principal } from '../../../core/auth/principal';
import { ServiceIdentity } from '../../../core/auth/service-identity';
import { AppError } from '../../../core/errors';
import { OperationExecutor } from '../../../core/graphql-http';
import { Locale } from '../../../core/i18n';
import { Logger } from '../../../core/logger';
import { SupergraphClient } from '../../../core/supergraph-client';
import { NOTIFICATION } from '../../notification/contract';

/** The mail events auth sends, by the key their templates are stored under in the notification domain. */
export const AUTH_MAIL_EVENTS = { passwordReset: 'auth.password-reset', invitation: 'auth.invitation' } as const;

/** The documents auth runs on the gateway (validated against the supergraph by `npm run schema:check`). */
export const AUTH_MAIL_OPERATIONS = {
  RenderMailTemplate: `query RenderMailTemplate($event: String!, $locale: Locale, $variables: JSON) {
    renderMailTemplate(event: $event, locale: $locale, variables: $variables) { subject content contentType } }`,
};

/** Auth on the supergraph: a service principal holding only notification:manage, the gate of renderMailTemplate. */
export const AUTH_SERVICE_PRINCIPAL = new Principal('service', 'internal:auth', 'internal', [NOTIFICATION.permissions.manage]);

/** A mail as a template rendered it: plain text, or HTML with a text version. */
export interface TemplatedMail {
  subject: string;
  text: string;
  html?: string;
}

/** How long auth waits for a template before sending its built-in text: a reset must not hang on it. */
const RENDER_TIMEOUT_MS = 3000;

/**
 * Auth's mails from the notification domain's mail templates, rendered there through the supergraph.
 * `null` when the event has no template, or the notification service (or the gateway) does not
 * answer in time: the caller then sends its built-in text, so a reset never depends on notification.
 */
export class MailTemplates {
  private readonly client: SupergraphClient;

  constructor(tokens: AccessTokens, gateway: OperationExecutor, private readonly logger: Logger) {
    this.client = new SupergraphClient(gateway, new ServiceIdentity(tokens, AUTH_SERVICE_PRINCIPAL), RENDER_TIMEOUT_MS);
  }

  async render(event: string, locale: Locale, variables: Record<string, unknown>): Promise<TemplatedMail | null> {
    try {
      const { renderMailTemplate: mail } = await this.client.run<{ renderMailTemplate: { subject: string; content: string; contentType: string } }>(
        AUTH_MAIL_OPERATIONS.RenderMailTemplate,
        { event, locale, variables },
      );
      if (mail.contentType === 'html') return { subject: mail.subject, html: mail.content, text: textOf(mail.content) };
      return { subject: mail.subject, text: mail.content };
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'NOT_FOUND')) this.logger.warn({ err: error, event }, 'mail template unavailable: built-in text sent');
      return null;
    }
  }
}

/** The text version of an HTML mail: tags dropped, the common entities decoded, blank runs collapsed. */
function textOf(html: string): string {
  return html
    .replace(/<(br|\/p|\/div|\/li|\/h\d)\s*\/?>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&#x60;/g, '`')
    .replace(/&#x3D;/g, '=')
    .replace(/&amp;/g, '&')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
