import { Entity, OptionalProps, Enum, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { registerEnumType } from 'type-graphql';
import { Staff } from './staff';

export enum ResetChannel {
  EMAIL = 'EMAIL',
  SMS = 'SMS',
}
registerEnumType(ResetChannel, { name: 'ResetChannel', description: 'Where a password-reset code is sent' });

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
