import { AccessTokens } from '../../core/auth/jwt';
import { Mailer } from '../../core/messaging/mailer';
import { SmsSender } from '../../core/messaging/sms';
import { Logger } from '../../core/logger';
import { ChatappClient } from './chatapp-client';

/** What the auth services need from outside the database. */
export interface AuthDeps {
  tokens: AccessTokens;
  mailer: Mailer;
  sms: SmsSender;
  chatapp: ChatappClient;
  logger: Logger;
}
