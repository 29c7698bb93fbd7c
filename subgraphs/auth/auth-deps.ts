import { AccessTokens } from '../../core/auth/jwt';
import { PermissionScopes } from '../../core/auth/scopes';
import { PasswordHasher } from '../../core/auth/secrets';
import { Mailer } from '../../core/messaging/mailer';
import { SmsSender } from '../../core/messaging/sms';
import { Logger } from '../../core/logger';
import { ChatappClient } from './chatapp-client';
import { MailTemplates } from './services/mail-templates-supergraph';

/** What the auth services need from outside the database. */
export interface AuthDeps {
  tokens: AccessTokens;
  /** The scopes each permission needs (every domain's contract): what a key's or OAuth token's scopes leave of its role. */
  permissionScopes: PermissionScopes;
  passwords: PasswordHasher;
  mailer: Mailer;
  sms: SmsSender;
  chatapp: ChatappClient;
  logger: Logger;
  /** The notification domain's mail templates, through the supergraph; without it the built-in texts are sent. */
  mailTemplates?: MailTemplates;
  /** The OAuth authorization server's issuer identifier (PUBLIC_URL), sent back as `iss` with codes. */
  oauthIssuer?: string;
}
