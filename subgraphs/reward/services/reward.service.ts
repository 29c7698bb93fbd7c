import { EntityManager } from '@mikro-orm/postgresql';
import { DESCRIBED } from '../../../core/catalog/catalog-entity';
import { CatalogService } from '../../../core/catalog/catalog.service';
import { badRequest, FieldError, validationError } from '../../../core/errors';
import { Locale } from '../../../core/i18n';
import { isRecordId } from '../../../core/ids';
import { Page } from '../../../core/pagination';
import { Reward, StockType } from '../entities/reward';
import { RewardCatalog } from '../entities/reward-catalog';
import { CreateRewardInput, MAX_STOCK, RewardConditionInput, RewardListArgs, UpdateRewardInput } from '../types/reward.types';
import { rewardRuleErrors } from './reward-rules';

/** Rewards: localized CRUD with soft delete, the rules between their fields, and their stock. */
export class RewardService extends CatalogService<Reward> {
  constructor(em: EntityManager) {
    super(em, { entity: Reward, label: 'Reward', localized: DESCRIBED, orderBy: { createdAt: 'desc', id: 'asc' } });
  }

  override list(args: RewardListArgs, locale?: Locale): Promise<Page<Reward>> {
    return super.list(args, locale, args.type ? { type: args.type } : {});
  }

  async create(input: CreateRewardInput): Promise<Reward> {
    const reward = this.em.create(Reward, {
      ...this.localizedValues({ ...input }),
      name_en: input.name_en,
      description_en: input.description_en,
      type: input.type,
      discountType: input.discountType ?? null,
      benefitValue: decimalOf(input.benefitValue),
      imageUrl: input.imageUrl ?? null,
      stock: input.stock ?? 0,
      stockType: input.stockType ?? StockType.LIMITED,
      rewardCatalogId: input.rewardCatalogId ?? null,
      storeIds: input.storeIds ?? [],
      isActive: input.isActive ?? true,
    });
    assignCondition(reward, input.condition);
    await this.check(reward, input.rewardCatalogId);
    await this.flush(reward);
    return reward;
  }

  async update(id: string, input: UpdateRewardInput): Promise<Reward> {
    const reward = await this.live(id);
    this.assignLocalized(reward, { ...input });
    const { type, discountType, imageUrl, stock, stockType, rewardCatalogId, storeIds, isActive } = input;
    const given = { type, discountType, imageUrl, stock, stockType, rewardCatalogId, storeIds, isActive };
    this.assignGiven(reward, given, Object.keys(given) as Array<keyof typeof given>);
    if (input.benefitValue !== undefined) reward.benefitValue = decimalOf(input.benefitValue);
    if (input.condition !== undefined) assignCondition(reward, input.condition);
    await this.check(reward, input.rewardCatalogId);
    await this.flush(reward);
    return reward;
  }

  /** Adds `amount` units in one UPDATE; 400 past MAX_STOCK. INFINITE stock is left as it is. */
  increaseStock(id: string, amount: number): Promise<Reward> {
    return this.changeStock(id, 'stock = stock + ?', 'stock <= ?', [amount, MAX_STOCK - amount], () => badRequest(`Stock cannot exceed ${MAX_STOCK}`, 'amount'));
  }

  /**
   * Takes `amount` units in one conditional UPDATE (`where stock >= amount`), so that concurrent
   * decrements never take more than there is: 400 when the stock is short. INFINITE stock never runs out.
   */
  decreaseStock(id: string, amount: number): Promise<Reward> {
    return this.changeStock(id, 'stock = stock - ?', 'stock >= ?', [amount, amount], () => badRequest('Insufficient stock', 'amount'));
  }

  /**
   * One atomic UPDATE of a live LIMITED reward's stock under `condition`, answered with the row it
   * wrote (not re-read, which a concurrent change may already have moved on); when it changes no row,
   * the reward is missing (404), INFINITE (answered unchanged), or refused by the condition.
   */
  private async changeStock(id: string, change: string, condition: string, params: [number, number], refused: () => Error): Promise<Reward> {
    if (isRecordId(id)) {
      const changed = await this.em.getConnection().execute(
        `update reward.reward set ${change}, updated_at = now()
          where id = ? and deleted_at is null and stock_type = 'LIMITED' and ${condition} returning *`,
        [params[0], id, params[1]],
      );
      if (changed.length > 0) return this.em.map(Reward, changed[0]);
    }
    const reward = await this.live(id);
    if (reward.stockInfinite) return reward;
    throw refused();
  }

  /** The rules between fields, on the reward as it would be stored, and the catalog it names: 400 with every failing field. */
  private async check(reward: Reward, rewardCatalogId: string | null | undefined): Promise<void> {
    const errors: FieldError[] = rewardRuleErrors(reward);
    if (rewardCatalogId && !(await this.em.count(RewardCatalog, { id: rewardCatalogId }))) {
      errors.push({ field: 'rewardCatalogId', message: 'rewardCatalogId names no reward catalog' });
    }
    if (errors.length > 0) throw validationError(errors);
  }
}

/** A validated amount (2 decimals at most) as the decimal string of a numeric column. */
const decimalOf = (value: number | null | undefined): string | null => (value === undefined || value === null ? null : value.toFixed(2));

/** Replaces the whole condition (null clears it). */
function assignCondition(reward: Reward, condition: RewardConditionInput | null | undefined): void {
  reward.minimumSpend = decimalOf(condition?.minimumSpend);
  reward.timeUseWithIn = condition?.timeUseWithIn ?? null;
  reward.windowStart = condition?.window?.start ?? null;
  reward.windowEnd = condition?.window?.end ?? null;
}
