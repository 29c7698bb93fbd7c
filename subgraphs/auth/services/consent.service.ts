import { EntityManager } from '@mikro-orm/postgresql';
import { notFound } from '../../../core/errors';
import { Locale, projectLocale } from '../../../core/i18n';
import { ConsentAcceptance } from '../entities/consent-acceptance';
import { ConsentType, ConsentVersion } from '../entities/consent-version';
import { Member } from '../entities/member';
import { ConsentStatus, PublishConsentVersionInput } from '../types/consent.types';

/** Versions of the privacy policy and the terms, and which of them each member accepted. */
export class ConsentService {
  constructor(private readonly em: EntityManager) {}

  async publish(input: PublishConsentVersionInput): Promise<ConsentVersion> {
    const version = this.em.create(ConsentVersion, { ...input, effectiveAt: input.effectiveAt ?? new Date() });
    await this.em.flush();
    return version;
  }

  async list(type?: ConsentType, locale?: Locale): Promise<ConsentVersion[]> {
    const versions = await this.em.find(ConsentVersion, type ? { type } : {}, { orderBy: { effectiveAt: 'desc', createdAt: 'desc' } });
    return versions.map((version) => projectLocale(version, ['content'], locale));
  }

  /** The version of each type in force now: the newest whose `effectiveAt` has passed. */
  async current(locale?: Locale): Promise<ConsentVersion[]> {
    const current: ConsentVersion[] = [];
    for (const type of Object.values(ConsentType)) {
      const version = await this.currentOf(type);
      if (version) current.push(projectLocale(version, ['content'], locale));
    }
    return current;
  }

  async accept(memberId: string, consentVersionId: string): Promise<ConsentStatus[]> {
    await this.requireMember(memberId);
    const version = await this.em.findOne(ConsentVersion, { id: consentVersionId });
    if (!version) throw notFound('Consent version', consentVersionId);
    await this.em
      .createQueryBuilder(ConsentAcceptance)
      .insert({ id: crypto.randomUUID(), member: memberId, consentVersion: version.id, acceptedAt: new Date() })
      .onConflict(['member_id', 'consent_version_id'])
      .ignore()
      .execute();
    return this.statusOf(memberId);
  }

  async statusOf(memberId: string): Promise<ConsentStatus[]> {
    await this.requireMember(memberId);
    const statuses: ConsentStatus[] = [];
    for (const type of Object.values(ConsentType)) {
      const currentVersion = await this.currentOf(type);
      const latest = await this.em.findOne(
        ConsentAcceptance,
        { member: memberId, consentVersion: { type } },
        { populate: ['consentVersion'], orderBy: { consentVersion: { effectiveAt: 'desc' } } },
      );
      const acceptedCurrent = currentVersion
        ? (await this.em.count(ConsentAcceptance, { member: memberId, consentVersion: currentVersion.id })) > 0
        : false;
      statuses.push({
        type,
        currentVersion,
        acceptedVersion: latest?.consentVersion.version ?? null,
        acceptedAt: latest?.acceptedAt ?? null,
        hasAcceptedCurrent: acceptedCurrent,
      });
    }
    return statuses;
  }

  /** A deleted member is not found: it may neither read nor record consent. */
  private async requireMember(memberId: string): Promise<void> {
    await this.em.findOneOrFail(Member, { id: memberId }, { failHandler: () => notFound('Member', memberId) });
  }

  private currentOf(type: ConsentType): Promise<ConsentVersion | null> {
    return this.em.findOne(ConsentVersion, { type, effectiveAt: { $lte: new Date() } }, { orderBy: { effectiveAt: 'desc', createdAt: 'desc' } });
  }
}
