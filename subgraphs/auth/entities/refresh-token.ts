import { Entity, OptionalProps, Enum, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';

export type SessionSubject = 'staff' | 'member';

/**
 * One refresh token of a login session. Tokens are single-use: refreshing marks this one used and
 * issues the next of the same family; presenting a used token revokes the whole family.
 */
@Entity({ tableName: 'refresh_token' })
export class RefreshToken {
  [OptionalProps]?: 'usedAt' | 'revokedAt' | 'createdAt';

  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Property({ type: 'uuid', index: true }) familyId: string;
  @Property({ unique: true }) tokenHash: string;
  @Enum({ items: ['staff', 'member'] }) subjectKind: SessionSubject;
  @Property({ type: 'uuid' }) subjectId: string;
  @Property({ type: 'timestamptz' }) expiresAt: Date;
  @Property({ type: 'timestamptz', nullable: true }) usedAt: Date | null = null;
  @Property({ type: 'timestamptz', nullable: true }) revokedAt: Date | null = null;
  @Property({ type: 'timestamptz' }) createdAt: Date = new Date();
}
