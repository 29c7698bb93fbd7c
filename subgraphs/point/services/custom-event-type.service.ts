import { LockMode } from '@mikro-orm/core';
import { EntityManager, UniqueConstraintViolationException } from '@mikro-orm/postgresql';
import { conflict, notFound, validationError } from '../../../core/errors';
import { findPage, Page } from '../../../core/pagination';
import { CustomEventType } from '../entities/custom-event-type';
import { EarningRule } from '../entities/earning-rule';
import { CustomEventTypeInput, CustomEventTypePatch } from '../types/custom-event.types';
import { PageArgs } from '../../../core/pagination';
import { checkAttributeDeclarations, EVENT_NAME } from './earning-rules/event-attributes';
import { ruleContext } from './earning-rules/rule-context';
import { checkRuleDefinition, CUSTOM_EVENT, EventAttributes } from './earning-rules/rule-definition';

const EVENT_TYPE = 'CustomEventType';

/** The attribute declarations given, or 400 naming each bad one. */
function declarationsFrom(attributes: unknown): EventAttributes {
  const checked = checkAttributeDeclarations(attributes);
  if ('errors' in checked) throw validationError(checked.errors);
  return checked.attributes;
}

/**
 * Custom event types: declared by an admin with their attributes; events of an undeclared type, or whose
 * attributes do not match, are refused. A type that live rules use cannot be deleted, nor changed so that
 * one of them no longer fits it (409).
 */
export class CustomEventTypeService {
  constructor(private readonly em: EntityManager) {}

  async list(args: PageArgs): Promise<Page<CustomEventType>> {
    return findPage(this.em, CustomEventType, {}, { name: 'asc', id: 'asc' }, args, await this.em.count(CustomEventType, {}));
  }

  async get(name: string): Promise<CustomEventType> {
    const found = await this.em.findOne(CustomEventType, { name });
    if (!found) throw notFound(EVENT_TYPE, name);
    return found;
  }

  async create(input: CustomEventTypeInput): Promise<CustomEventType> {
    const errors = EVENT_NAME.test(input.name) ? [] : [{ field: 'name', message: 'name must be lowercase letters, digits and _, starting with a letter, at most 64' }];
    const checked = checkAttributeDeclarations(input.attributes);
    if ('errors' in checked || errors.length > 0) throw validationError([...errors, ...('errors' in checked ? checked.errors : [])]);
    return this.em.transactional(async (em) => {
      // Names are unique among live types (a partial unique index); checked first for a clear 409.
      if (await em.count(CustomEventType, { name: input.name })) throw conflict(`The event type ${input.name} exists`, 'name');
      const created = em.create(CustomEventType, { name: input.name, description: input.description ?? null, attributes: checked.attributes });
      try {
        await em.flush();
      } catch (error) {
        // Two creations of one name racing each other: the index refuses the second.
        if (error instanceof UniqueConstraintViolationException) throw conflict(`The event type ${input.name} exists`, 'name');
        throw error;
      }
      return created;
    });
  }

  /** Changes the description or the attributes (all of them, as given); 409 when a live rule would no longer fit the type. */
  async update(name: string, patch: CustomEventTypePatch): Promise<CustomEventType> {
    return this.em.transactional(async (em) => {
      const eventType = await this.locked(em, name);
      if (patch.description !== undefined) eventType.description = patch.description;
      if (patch.attributes !== undefined) {
        const attributes = declarationsFrom(patch.attributes);
        const context = await ruleContext(em);
        const eventTypes = new Map(context.eventTypes).set(name, attributes);
        for (const rule of await this.rulesOf(em, name)) {
          if ('errors' in checkRuleDefinition({ ...rule }, { eventTypes })) throw conflict(`The rule "${rule.name}" (${rule.id}) tests attributes this change removes or retypes`);
        }
        eventType.attributes = attributes;
      }
      await em.flush();
      return eventType;
    });
  }

  /** Deletes a type softly; 409 while a live rule reacts to it. */
  async softDelete(name: string): Promise<CustomEventType> {
    return this.em.transactional(async (em) => {
      const eventType = await this.locked(em, name);
      const [used] = await this.rulesOf(em, name);
      if (used) throw conflict(`The rule "${used.name}" (${used.id}) reacts to ${name}: delete it first`);
      eventType.deletedAt = new Date();
      await em.flush();
      return eventType;
    });
  }

  private rulesOf(em: EntityManager, name: string): Promise<EarningRule[]> {
    return em.find(EarningRule, { trigger: `${CUSTOM_EVENT}${name}` as EarningRule['trigger'] });
  }

  private async locked(em: EntityManager, name: string): Promise<CustomEventType> {
    const found = await em.findOne(CustomEventType, { name }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (!found) throw notFound(EVENT_TYPE, name);
    return found;
  }
}
