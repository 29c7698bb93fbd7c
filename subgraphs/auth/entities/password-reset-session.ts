import { Entity, OptionalProps, Enum, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Staff } from './staff';
import { EnumValue, graphqlEnum } from '../../../core/graphql/enum';

export const ResetChannel = graphqlEnum('ResetChannel', ['EMAIL', 'SMS'], 'Where a password-reset code is sent');
export type ResetChannel = EnumValue<typeof ResetChannel>;

/** A password-reset (or first activation) session: a code sent to the staff, single-use, expiring. */
@Entity({ tableName: 'password_reset_session' })
export class PasswordResetSession {
  [OptionalProps]?: 'failedAttempts' | 'usedAt' | 'createdAt';

  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @ManyToOne(() => Staff) staff: Staff;
  @Enum({ items: () => ResetChannel }) channel: ResetChannel;
  @Property() codeHash: string;
  @Property() failedAttempts: number = 0;
  @Property({ type: 'timestamptz' }) expiresAt: Date;
  @Property({ type: 'timestamptz', nullable: true }) usedAt: Date | null = null;
  @Property({ type: 'timestamptz' }) createdAt: Date = new Date();
}
