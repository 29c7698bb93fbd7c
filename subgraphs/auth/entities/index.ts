import { OutboxEvent } from '../../../core/events/outbox-event';
import { ConsentAcceptance } from './consent-acceptance';
import { ConsentVersion } from './consent-version';
import { Member } from './member';
import { PasswordResetSession } from './password-reset-session';
import { RefreshToken } from './refresh-token';
import { Role } from './role';
import { ServiceApiKey } from './service-api-key';
import { Staff } from './staff';

export const authEntities = [Role, Staff, PasswordResetSession, ServiceApiKey, RefreshToken, Member, ConsentVersion, ConsentAcceptance, OutboxEvent];
