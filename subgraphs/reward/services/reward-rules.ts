import { FieldError } from '../../../core/errors';
import { DiscountType, RewardType } from '../entities/reward';

/** The fields of a reward the rules between fields look at, as they will be stored. */
export interface RewardRuleFields {
  type: RewardType;
  discountType: DiscountType | null;
  benefitValue: string | null;
  minimumSpend: string | null;
  timeUseWithIn: number | null;
  windowStart: Date | null;
  windowEnd: Date | null;
}

/**
 * The rules of spec Part 1 between a reward's fields: a VOUCHER needs `discountType`, `benefitValue`
 * and `condition.minimumSpend`; every type but POINT needs `condition.timeUseWithIn` and
 * `condition.window`. Also: a percentage is at most 100, and a window ends after it starts.
 */
export function rewardRuleErrors(reward: RewardRuleFields): FieldError[] {
  const errors: FieldError[] = [];
  const require = (present: boolean, field: string, why: string) => {
    if (!present) errors.push({ field, message: `${field} is required ${why}` });
  };
  if (reward.type === RewardType.VOUCHER) {
    const why = 'for a VOUCHER reward';
    require(reward.discountType !== null, 'discountType', why);
    require(reward.benefitValue !== null, 'benefitValue', why);
    require(reward.minimumSpend !== null, 'condition.minimumSpend', why);
  }
  if (reward.type !== RewardType.POINT) {
    const why = `for a ${reward.type} reward`;
    require(reward.timeUseWithIn !== null, 'condition.timeUseWithIn', why);
    require(reward.windowStart !== null, 'condition.window', why);
  }
  if (reward.discountType === DiscountType.PERCENTAGE && reward.benefitValue !== null && Number(reward.benefitValue) > 100) {
    errors.push({ field: 'benefitValue', message: 'benefitValue must be at most 100 for a PERCENTAGE discount' });
  }
  if (reward.windowStart && reward.windowEnd && reward.windowEnd <= reward.windowStart) {
    errors.push({ field: 'condition.window.end', message: 'condition.window.end must be after condition.window.start' });
  }
  return errors;
}
