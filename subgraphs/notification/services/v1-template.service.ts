import { EntityManager, UniqueConstraintViolationException } from '@mikro-orm/postgresql';
import { AppError, conflict, FieldError, validationError } from '../../../core/errors';
import { findPage, Page, PageArgs } from '../../../core/pagination';
import { V1_CHANNELS } from '../entities/v1-notification';
import { V1Template } from '../entities/v1-template';
import { CreateV1TemplateInput } from '../types/v1-template.types';

export const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;
export const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;
export const MAX_VARIABLES = 50;
export const MAX_TITLE = 255;
export const MAX_BODY = 5000;

/** The placeholder names of a text, in order of appearance. */
export const placeholdersOf = (text: string): string[] => [...text.matchAll(PLACEHOLDER)].map((match) => match[1]);

/** Fills `{{name}}` with the variable's value (plain text; no other syntax). */
export const fillPlaceholders = (text: string, values: Record<string, string>): string => text.replace(PLACEHOLDER, (_whole, name: string) => values[name] ?? '');

/**
 * Notification templates (Part 3): named, with `{{variable}}` placeholders that must all be declared in
 * `variables` (checked on create); a send by template must give every declared variable and no other.
 */
export class V1TemplateService {
  constructor(private readonly em: EntityManager) {}

  list(args: PageArgs): Promise<Page<V1Template>> {
    return this.em.count(V1Template, {}).then((total) => findPage(this.em, V1Template, {}, { name: 'asc', id: 'asc' }, args, total));
  }

  async create(input: CreateV1TemplateInput): Promise<V1Template> {
    const errors: FieldError[] = [];
    const name = input.name?.trim() ?? '';
    if (!NAME.test(name)) errors.push({ field: 'name', message: 'name is 1 to 100 letters, digits, ".", "-" or "_", starting with a letter or digit' });
    const variables = input.variables ?? [];
    variables.forEach((variable, index) => {
      if (!VARIABLE.test(variable)) errors.push({ field: `variables[${index}]`, message: 'a variable is a letter or "_" then letters, digits or "_" (at most 64)' });
      else if (variables.indexOf(variable) !== index) errors.push({ field: `variables[${index}]`, message: `${variable} is declared twice` });
    });
    if (variables.length > MAX_VARIABLES) errors.push({ field: 'variables', message: `at most ${MAX_VARIABLES} variables` });
    checkText('title', input.title, MAX_TITLE, variables, errors);
    checkText('body', input.body, MAX_BODY, variables, errors);
    if (!(V1_CHANNELS as readonly string[]).includes(input.channel ?? '')) errors.push({ field: 'channel', message: `channel is one of ${V1_CHANNELS.join(', ')}` });
    if (errors.length > 0) throw validationError(errors);
    const template = this.em.create(V1Template, { name, title: input.title!, body: input.body!, channel: input.channel!, variables });
    try {
      await this.em.flush();
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw conflict(`A template named ${name} exists`, 'name');
      throw error;
    }
    return template;
  }

  /** The template of that name (any case); 404 on `template`. */
  async byName(name: string): Promise<V1Template> {
    const [template] = await this.em.find(V1Template, { name: { $ilike: name.replace(/[\\%_]/g, (c) => `\\${c}`) } }, { limit: 1 });
    if (!template) throw new AppError('NOT_FOUND', `Template ${name} not found`, [{ field: 'template', message: `no template named ${name}` }]);
    return template;
  }
}

/**
 * A template's title and body with `variables` filled; 400 on `variables.<name>` for each missing or
 * undeclared one, and on the variables of a title or body that comes out empty or too long (a direct
 * send's rules: neither blank, at most MAX_TITLE and MAX_BODY characters).
 */
export function renderV1Template(template: V1Template, variables: Record<string, unknown>, errors: FieldError[]): { title: string; body: string } {
  const before = errors.length;
  const values: Record<string, string> = {};
  for (const name of template.variables) {
    const value = variables[name];
    if (value === undefined || value === null) errors.push({ field: `variables.${name}`, message: `${name} is required by template ${template.name}` });
    else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') values[name] = String(value);
    else errors.push({ field: `variables.${name}`, message: `${name} is a string, number or boolean` });
  }
  for (const name of Object.keys(variables)) {
    if (!template.variables.includes(name)) errors.push({ field: `variables.${name}`, message: `template ${template.name} declares no variable ${name}` });
  }
  const rendered = { title: fillPlaceholders(template.title, values), body: fillPlaceholders(template.body, values) };
  // Only once every variable is right: a missing or wrong one is reported on its own.
  if (errors.length === before) {
    checkRendered('title', template.title, rendered.title, MAX_TITLE, errors);
    checkRendered('body', template.body, rendered.body, MAX_BODY, errors);
  }
  return rendered;
}

/** A rendered title or body that is blank or too long: 400 on each variable it uses (on the field itself without any). */
function checkRendered(field: 'title' | 'body', text: string, rendered: string, max: number, errors: FieldError[]): void {
  const problem = !rendered.trim() ? `the template's ${field} is empty with these variables` : rendered.length > max ? `the template's ${field} is longer than ${max} characters with these variables` : null;
  if (!problem) return;
  const used = [...new Set(placeholdersOf(text))];
  if (used.length === 0) errors.push({ field, message: problem });
  for (const name of used) errors.push({ field: `variables.${name}`, message: problem });
}

function checkText(field: string, text: string | null | undefined, max: number, variables: string[], errors: FieldError[]): void {
  if (typeof text !== 'string' || !text.trim()) return void errors.push({ field, message: `${field} is required` });
  if (text.length > max) return void errors.push({ field, message: `${field} is at most ${max} characters` });
  const undeclared = [...new Set(placeholdersOf(text).filter((name) => !variables.includes(name)))];
  if (undeclared.length > 0) errors.push({ field, message: `${field} uses undeclared variables: ${undeclared.join(', ')}` });
}
