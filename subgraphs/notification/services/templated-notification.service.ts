import { FieldError, validationError } from '../../../core/errors';
import { LOCALES } from '../../../core/i18n';
import { InAppNotification, NotificationFormat } from '../entities/in-app-notification';
import { TemplatedInAppNotificationInput } from '../types/templated-notification.types';
import { InAppNotificationService } from './in-app-notification.service';
import { metadataErrors } from './notification-metadata';
import { InAppNotificationTemplate, NOTIFICATION_TEMPLATES, NotificationTemplateDefinition, renderTemplate, templateKind } from './notification-templates';

const MAX_TITLE = 255;
const MAX_CONTENT = 20_000;

/**
 * The convenience endpoints: a notification of one kind written from that kind's metadata fields (the
 * body, beside `memberId`), its title and content generated in English, Thai and Chinese from the
 * template. The fields are kept as the notification's metadata.
 */
export class TemplatedNotificationService {
  constructor(private readonly inApps: InAppNotificationService) {}

  async create(name: InAppNotificationTemplate, input: TemplatedInAppNotificationInput): Promise<InAppNotification> {
    const template = NOTIFICATION_TEMPLATES[name];
    const fields = { ...template.defaults, ...dropNulls(input.fields ?? {}) };
    const errors = templateFieldErrors(template, fields);
    if (errors.length > 0) throw validationError(errors);
    const values = { ...fields, ...template.derived?.(fields) };
    const texts = Object.fromEntries(
      LOCALES.flatMap((language) => [
        [`title_${language}`, bounded(renderTemplate(template.title[language], values, language), MAX_TITLE)],
        [`content_${language}`, bounded(renderTemplate(template.content[language], values, language), MAX_CONTENT)],
      ]),
    );
    return this.inApps.create({
      ...texts,
      memberId: input.memberId,
      format: NotificationFormat.raw,
      type: template.type,
      pointSubtype: template.pointSubtype ?? null,
      tierSubtype: template.tierSubtype ?? null,
      metadata: fields,
    });
  }
}

/** The body's fields against the kind's metadata rules and the template's own, named as the body names them. */
function templateFieldErrors(template: NotificationTemplateDefinition, fields: Record<string, unknown>): FieldError[] {
  const errors = metadataErrors(templateKind(template), fields).map(({ field, message }) => ({
    field: field.replace(/^metadata\./, ''),
    message: message.replace(/^metadata\./, ''),
  }));
  const named = new Set(errors.map((error) => error.field));
  for (const requirement of template.required) {
    const choices = requirement.split('|');
    if (choices.some((choice) => fields[choice] !== undefined) || named.has(choices[0])) continue;
    errors.push({ field: choices[0], message: `${choices.join(' or ')} is required` });
  }
  for (const field of template.positive ?? []) {
    const value = fields[field];
    if (!named.has(field) && value !== undefined && !(typeof value === 'number' && value > 0)) errors.push({ field, message: `${field} must be a positive number` });
  }
  return errors.sort((a, b) => a.field.localeCompare(b.field));
}

const dropNulls = (fields: Record<string, unknown>) => Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== null && value !== undefined));

/** A generated text within its column's bound (a long field value could carry it past). */
const bounded = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
