import { EntityManager } from '@mikro-orm/postgresql';
import { NAMED } from '../../../core/catalog/catalog-entity';
import { CatalogService } from '../../../core/catalog/catalog.service';
import { arrayLiteral } from '../../../core/db/array-literal';
import { badRequest } from '../../../core/errors';
import { Locale } from '../../../core/i18n';
import { InterestCategory } from '../entities/interest-category';
import { InterestCategoryInput, UpdateInterestCategoryInput } from '../types/segment.types';

/** Interest categories (staff-managed, soft delete) and each member's picks among the live ones. */
export class InterestService extends CatalogService<InterestCategory> {
  constructor(em: EntityManager) {
    super(em, {
      entity: InterestCategory,
      label: 'Interest category',
      localized: NAMED,
      orderBy: { name_en: 'asc', id: 'asc' },
      unique: { field: 'name_en', message: () => 'A live interest category with this name_en already exists' },
    });
  }

  /** Every live category, by English name. */
  async categories(locale?: Locale): Promise<InterestCategory[]> {
    const items = await this.em.find(InterestCategory, {}, { orderBy: this.catalog.orderBy });
    return items.map((item) => this.localize(item, locale));
  }

  async create(input: InterestCategoryInput): Promise<InterestCategory> {
    const category = this.em.create(InterestCategory, { ...this.localizedValues({ ...input }), name_en: input.name_en });
    await this.flush(category);
    return category;
  }

  async update(id: string, input: UpdateInterestCategoryInput): Promise<InterestCategory> {
    const category = await this.live(id);
    this.assignLocalized(category, { ...input });
    await this.flush(category);
    return category;
  }

  /** The member's live interests, by English name. */
  async ofMember(memberId: string, locale?: Locale): Promise<InterestCategory[]> {
    const rows = await this.em.getConnection().execute<Array<{ category_id: string }>>('select category_id from cluster.member_interest where member_id = ?', [memberId]);
    if (rows.length === 0) return [];
    const items = await this.em.find(
      InterestCategory,
      { id: { $in: rows.map((row) => row.category_id) } },
      { orderBy: this.catalog.orderBy },
    );
    return items.map((item) => this.localize(item, locale));
  }

  /** Replaces the member's whole set; any id that is not a live category is 400 and nothing changes. */
  async replace(memberId: string, categoryIds: string[], locale?: Locale): Promise<InterestCategory[]> {
    const ids = [...new Set(categoryIds)];
    await this.em.transactional(async (em) => {
      const live = await em.find(InterestCategory, { id: { $in: ids } });
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
}
