import { FilterQuery, UniqueConstraintViolationException } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { badRequest, conflict, notFound, notFoundNamed, validationError } from '../../../core/errors';
import { Locale, LOCALES } from '../../../core/i18n';
import { isRecordId } from '../../../core/ids';
import { offsetOf, Page, pageOf } from '../../../core/pagination';
import { containsAny } from '../../../core/search';
import { MAIL_TEMPLATE_TEXTS, MailContentType, MailTemplate } from '../entities/mail-template';
import { CreateMailTemplateInput, MailTemplateListArgs, RenderedMail, UpdateMailTemplateInput } from '../types/mail-template.types';
import { renderContent, renderSubject, templateErrors } from './mail-template-rendering';

const LABEL = 'Mail template';
const TEXT_FIELDS = MAIL_TEMPLATE_TEXTS.flatMap((name) => LOCALES.map((language) => `${name}_${language}` as const));
const UPDATABLE = ['name', 'version', 'event', ...TEXT_FIELDS, 'contentType', 'defaultSenderId'] as const;

/**
 * Mail templates: notification:manage writes, lists, reads and soft-deletes them; a template renders
 * its subject and content in one language with `{{variable}}` placeholders filled in. One live
 * template per event and version (409 on `version`).
 */
export class MailTemplateService {
  constructor(private readonly em: EntityManager) {}

  async create(input: CreateMailTemplateInput): Promise<MailTemplate> {
    assertTemplates(input);
    const template = this.em.create(MailTemplate, {
      ...Object.fromEntries(TEXT_FIELDS.map((field) => [field, input[field] ?? null])),
      name: input.name,
      version: input.version ?? '1',
      event: input.event,
      subject_en: input.subject_en,
      content_en: input.content_en,
      contentType: input.contentType ?? MailContentType.html,
      defaultSenderId: input.defaultSenderId ?? null,
    });
    await this.flush(template);
    return template;
  }

  /** Newest first (then by id): `event` and `version` match exactly, `search` any part of the name or a subject. */
  async list(args: MailTemplateListArgs): Promise<Page<MailTemplate>> {
    const where: Record<string, unknown> = {};
    if (args.event) where.event = args.event;
    if (args.version) where.version = args.version;
    if (args.search?.trim()) Object.assign(where, containsAny(['name', ...LOCALES.map((language) => `subject_${language}`)], args.search.trim()));
    const [items, total] = await this.em.findAndCount(MailTemplate, where as FilterQuery<MailTemplate>, {
      orderBy: { createdAt: 'desc', id: 'asc' },
      limit: args.limit,
      offset: offsetOf(args),
    });
    return pageOf(items, total, args);
  }

  get(id: string): Promise<MailTemplate> {
    return this.live(id);
  }

  /** Changes the given fields; the templates given must compile. */
  async update(id: string, input: UpdateMailTemplateInput): Promise<MailTemplate> {
    assertTemplates(input);
    const template = await this.live(id);
    for (const field of UPDATABLE) {
      if (input[field] !== undefined) Object.assign(template, { [field]: input[field] ?? null });
    }
    await this.flush(template);
    return template;
  }

  /** Soft delete: the template leaves lists, reads and rendering; its event and version are free again. */
  async softDelete(id: string): Promise<MailTemplate> {
    const template = await this.live(id);
    template.deletedAt = new Date();
    await this.em.flush();
    return template;
  }

  /** Renders the template in `locale` (English when that language has no text). */
  async render(id: string, locale: Locale = Locale.en, variables: Record<string, unknown> = {}): Promise<RenderedMail> {
    return renderMail(await this.live(id), locale, variables);
  }

  /** Renders the template of `event`: the given version, else the newest live one; 404 when there is none. */
  async renderForEvent(event: string, version: string | undefined, locale: Locale = Locale.en, variables: Record<string, unknown> = {}): Promise<RenderedMail> {
    const [template] = await this.em.find(MailTemplate, { event, ...(version ? { version } : {}) }, { orderBy: { createdAt: 'desc', id: 'asc' }, limit: 1 });
    if (!template) throw notFoundNamed(`${LABEL} for ${event}`);
    return renderMail(template, locale, variables);
  }

  /** The live template; 404 with `data.data.id`. Any string is accepted as an id. */
  private async live(id: string): Promise<MailTemplate> {
    const template = isRecordId(id) ? await this.em.findOne(MailTemplate, { id }) : null;
    if (!template) throw notFound(LABEL, id);
    return template;
  }

  private async flush(template: MailTemplate): Promise<void> {
    try {
      await this.em.flush();
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) {
        throw conflict(`A mail template for ${template.event} in version ${template.version} already exists`, 'version');
      }
      throw error;
    }
  }
}

function assertTemplates(input: Partial<Record<(typeof TEXT_FIELDS)[number], string | null>>): void {
  const errors = templateErrors(Object.fromEntries(TEXT_FIELDS.map((field) => [field, input[field]])));
  if (errors.length > 0) throw validationError(errors);
}

function renderMail(template: MailTemplate, locale: Locale, variables: Record<string, unknown>): RenderedMail {
  const language = template[`subject_${locale}`] && template[`content_${locale}`] ? locale : Locale.en;
  try {
    return {
      templateId: template.id,
      event: template.event,
      version: template.version,
      locale: language,
      subject: renderSubject(template[`subject_${language}`] ?? '', variables),
      content: renderContent(template[`content_${language}`] ?? '', variables, template.contentType),
      contentType: template.contentType,
      defaultSenderId: template.defaultSenderId,
    };
  } catch (error) {
    throw badRequest(`The template could not be rendered with these variables: ${String((error as Error).message).split('\n')[0].slice(0, 200)}`, 'variables');
  }
}
