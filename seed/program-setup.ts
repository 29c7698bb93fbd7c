import { SeedContext } from './context';
import { DAY_MS } from './days';
import { ensureNamed, idsBy } from './ensure';
import { GraphqlClient } from './graphql-client';
import { BADGES, DemoReward, REWARDS, SHOP_RULE, TIER_BENEFITS, TIERS } from './program';


/** The ids of the program's tiers and reward catalogs, by name (a catalog by its reward's name). */
export interface ProgramIds {
  tiers: Map<string, string>;
  catalogs: Map<string, string>;
}

/** Every item of a list, inactive ones included, by English name. */
async function byEnglishName(client: GraphqlClient, field: string): Promise<Map<string, string>> {
  return idsBy(await client.listAll<{ id: string; name_en: string | null }>(field, 'id name_en', 'includeInActive: true'), 'name_en');
}

/** The flagship's double-points rule, found by its shop. */
async function ensureShopRule({ client, tally }: SeedContext): Promise<void> {
  const existing = idsBy(await client.listAll<{ id: string; shopId: string | null }>('pointShopRules', 'id shopId'), 'shopId');
  await ensureNamed(tally, 'shop point rules', [SHOP_RULE], (rule) => rule.shopId, existing, (rule) => client.create('createPointShopRule', 'CreatePointShopRuleInput', rule));
}

async function ensureTiers({ client, tally }: SeedContext): Promise<Map<string, string>> {
  return ensureNamed(tally, 'tiers', TIERS, (tier) => tier.name_en, await byEnglishName(client, 'tiers'), (tier) =>
    client.create('createTier', 'CreateTierInput', {
      name_en: tier.name_en,
      name_th: tier.name_th,
      description_en: tier.description_en,
      level: tier.level,
      background: tier.background,
      requirement: { purchaseAmountHit: tier.purchaseAmountHit },
      benefit: TIER_BENEFITS[tier.name_en],
    }),
  );
}

/** Badges before any purchase: their progress follows the point events that come after them. */
async function ensureBadges({ client, tally }: SeedContext): Promise<void> {
  await ensureNamed(tally, 'badges', BADGES, (badge) => badge.name_en, await byEnglishName(client, 'badges'), (badge) =>
    client.create('createBadge', 'CreateBadgeInput', { ...badge, rule: { ...badge.rule } }),
  );
}

function rewardInput(reward: DemoReward, now: Date): Record<string, unknown> {
  return {
    name_en: reward.name_en,
    description_en: reward.description_en,
    type: reward.type,
    discountType: reward.discountType,
    benefitValue: reward.benefitValue,
    stockType: reward.stock === null ? 'INFINITE' : 'LIMITED',
    stock: reward.stock ?? undefined,
    condition: {
      minimumSpend: reward.minimumSpend,
      timeUseWithIn: reward.useWithinDays,
      window: { start: new Date(now.getTime() - DAY_MS).toISOString(), end: new Date(now.getTime() + 365 * DAY_MS).toISOString() },
    },
  };
}

/** Each reward and its catalog entry (what members redeem points for), both by the reward's name. */
async function ensureRewards({ client, tally }: SeedContext, tiers: Map<string, string>): Promise<Map<string, string>> {
  const now = new Date();
  const rewards = await ensureNamed(tally, 'rewards', REWARDS, (reward) => reward.name_en, await byEnglishName(client, 'rewards'), (reward) =>
    client.create('createReward', 'CreateRewardInput', rewardInput(reward, now)),
  );
  return ensureNamed(tally, 'reward catalogs', REWARDS, (reward) => reward.name_en, await byEnglishName(client, 'rewardCatalogs'), (reward) =>
    client.create('createRewardCatalog', 'CreateRewardCatalogInput', {
      name_en: reward.name_en,
      description_en: reward.description_en,
      rewardId: rewards.get(reward.name_en),
      redeemRule: { pointUsage: reward.pointUsage },
      ...(reward.tiersOnly && { tierCondition: 'INCLUDE', tierRequirement: reward.tiersOnly.map((name) => tiers.get(name)) }),
    }),
  );
}

/** The program before its members: the flagship's rule, tiers with their benefits, badges, rewards and their catalog. */
export async function setUpProgram(context: SeedContext): Promise<ProgramIds> {
  await ensureShopRule(context);
  const tiers = await ensureTiers(context);
  await ensureBadges(context);
  const catalogs = await ensureRewards(context, tiers);
  return { tiers, catalogs };
}
