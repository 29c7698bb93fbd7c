import { Entity, OptionalProps, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { ConsentVersion } from './consent-version';
import { Member } from './member';

/** A member's acceptance of one consent version. */
@Entity({ tableName: 'consent_acceptance' })
@Unique({ properties: ['member', 'consentVersion'] })
export class ConsentAcceptance {
  [OptionalProps]?: 'acceptedAt';

  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @ManyToOne(() => Member) member: Member;
  @ManyToOne(() => ConsentVersion) consentVersion: ConsentVersion;
  @Property({ type: 'timestamptz' }) acceptedAt: Date = new Date();
}
