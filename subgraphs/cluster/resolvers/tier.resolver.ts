import { Args, Ctx, Query, Resolver } from 'type-graphql';
import { RequestContext } from '../../../core/context';
import { notFound } from '../../../core/errors';
import { Tier } from '../entities/tier';
import { IdArgs } from '../types/tier.types';

@Resolver(() => Tier)
export class TierResolver {
  @Query(() => Tier, { description: 'One tier; reads are public' })
  async tier(@Args() { id }: IdArgs, @Ctx() ctx: RequestContext): Promise<Tier> {
    const tier = await ctx.em.findOne(Tier, { id, deletedAt: null });
    if (!tier) throw notFound('Tier', id);
    return tier;
  }
}
