import Handlebars from 'handlebars';
import { FieldError } from '../../../core/errors';
import { MailContentType } from '../entities/mail-template';

/**
 * `{{variable}}` templates, with Handlebars: only its built-in helpers (if, each, with, unless, lookup),
 * no partials, no prototype access. HTML content escapes every `{{variable}}`; subjects and text
 * content are plain text (never HTML-escaped), and a subject is kept on one line.
 */
const handlebars = Handlebars.create();

const compileOptions = (escape: boolean): CompileOptions => ({ knownHelpersOnly: true, noEscape: !escape, strict: false });

/** Renders `source` with `variables`; throws on a template that does not compile or run. */
export function renderTemplate(source: string, variables: Record<string, unknown>, escapeHtml: boolean): string {
  return handlebars.compile(source, compileOptions(escapeHtml))(variables, { allowProtoPropertiesByDefault: false, allowProtoMethodsByDefault: false });
}

export function renderSubject(source: string, variables: Record<string, unknown>): string {
  return renderTemplate(source, variables, false).replace(/[\r\n]+/g, ' ').trim();
}

export function renderContent(source: string, variables: Record<string, unknown>, contentType: MailContentType): string {
  return renderTemplate(source, variables, contentType === MailContentType.html);
}

/** What is wrong with each given template text (it must compile and run without variables), one entry per field. */
export function templateErrors(texts: Record<string, string | null | undefined>): FieldError[] {
  const errors: FieldError[] = [];
  for (const [field, source] of Object.entries(texts)) {
    if (typeof source !== 'string') continue;
    try {
      renderTemplate(source, {}, true);
    } catch (error) {
      errors.push({ field, message: `${field} is not a valid template: ${firstLine(error)}` });
    }
  }
  return errors;
}

const firstLine = (error: unknown) => String((error as Error)?.message ?? error).split('\n')[0].slice(0, 200);
