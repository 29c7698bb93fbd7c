import { arrayLiteral } from '../../../core/db/array-literal';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { badRequest, conflict, notFound } from '../../../core/errors';
import { Locale, projectLocale } from '../../../core/i18n';
import { INTEREST_LOCALIZED, InterestCategory } from '../entities/interest-category';
import { InterestCategoryInput, UpdateInterestCategoryInput } from '../types/segment.types';

const CATEGORY = 'Interest category';

/** Interest categories (staff-managed, soft delete) and each member's picks among the live ones. */
export class InterestService {
  constructor(private readonly em: EntityManager) {}

  /** Every live category, by English name. */
  async categories(locale?: Locale): Promise<InterestCategory[]> {
    const items = await this.em.find(InterestCategory, { deletedAt: null }, { orderBy: { name_en: 'asc', id: 'asc' } });
    return items.map((item) => localizedCategory(item, locale));
  }

  async create(input: InterestCategoryInput): Promise<InterestCategory> {
    const category = this.em.create(InterestCategory, { name_en: input.name_en, name_th: input.name_th ?? null, name_cn: input.name_cn ?? null });
    await this.flushOrConflict();
    return category;
  }

  async update(id: string, input: UpdateInterestCategoryInput): Promise<InterestCategory> {
    const category = await this.live(id);
    if (input.name_en !== undefined) category.name_en = input.name_en;
    if (input.name_th !== undefined) category.name_th = input.name_th ?? null;
    if (input.name_cn !== undefined) category.name_cn = input.name_cn ?? null;
    await this.flushOrConflict();
    return category;
  }

  /** Soft delete: the category leaves the list and every member's interests (the picks are kept). */
  async softDelete(id: string): Promise<InterestCategory> {
    const category = await this.live(id);
    category.deletedAt = new Date();
    await this.em.flush();
    return category;
  }

  /** The member's live interests, by English name. */
  async ofMember(memberId: string, locale?: Locale): Promise<InterestCategory[]> {
    const rows = await this.em.getConnection().execute<Array<{ category_id: string }>>('select category_id from cluster.member_interest where member_id = ?', [memberId]);
    if (rows.length === 0) return [];
    const items = await this.em.find(
      InterestCategory,
      { id: { $in: rows.map((row) => row.category_id) }, deletedAt: null },
      { orderBy: { name_en: 'asc', id: 'asc' } },
    );
    return items.map((item) => localizedCategory(item, locale));
  }

  /** Replaces the member's whole set; any id that is not a live category is 400 and nothing changes. */
  async replace(memberId: string, categoryIds: string[], locale?: Locale): Promise<InterestCategory[]> {
    const ids = [...new Set(categoryIds)];
    await this.em.transactional(async (em) => {
      const live = await em.find(InterestCategory, { id: { $in: ids }, deletedAt: null });
      if (live.length !== ids.length) throw badRequest('Every category id must be a live interest category', 'categoryIds');
      const connection = em.getConnection();
      await connection.execute('delete from cluster.member_interest where member_id = ? and not (category_id = any(?::uuid[]))', [memberId, arrayLiteral(ids)]);
      if (ids.length > 0) {
        await connection.execute(
          'insert into cluster.member_interest (member_id, category_id, created_at) select ?, unnest(?::uuid[]), now() on conflict do nothing',
          [memberId, arrayLiteral(ids)],
        );
      }
    });
    return this.ofMember(memberId, locale);
  }

  private async live(id: string): Promise<InterestCategory> {
    const category = await this.em.findOne(InterestCategory, { id, deletedAt: null });
    if (!category) throw notFound(CATEGORY, id);
    return category;
  }

  private async flushOrConflict(): Promise<void> {
    try {
      await this.em.flush();
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw conflict('A live interest category with this name_en already exists', 'name_en');
      throw error;
    }
  }
}

export const localizedCategory = (category: InterestCategory, locale?: Locale): InterestCategory => projectLocale(category, INTEREST_LOCALIZED, locale);
