import { EntityManager } from '@mikro-orm/postgresql';
import { DESCRIBED } from '../../../core/catalog/catalog-entity';
import { CatalogService } from '../../../core/catalog/catalog.service';
import { FieldError, validationError } from '../../../core/errors';
import { Locale } from '../../../core/i18n';
import { Page } from '../../../core/pagination';
import { Reward, StockType } from '../entities/reward';
import { RewardCatalog } from '../entities/reward-catalog';
import { CreateRewardInput, RewardConditionInput, RewardListArgs, UpdateRewardInput } from '../types/reward.types';
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
