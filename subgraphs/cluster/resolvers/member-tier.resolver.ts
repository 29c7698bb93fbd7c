import { Args, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import { LocaleArgs } from '../../../core/i18n';
import { ClusterContext } from '../context';
import { Tier } from '../entities/tier';
import { MemberReference } from '../types/member.type';

/** Contributes `Member.tier` to the auth subgraph's Member. */
@Resolver(() => MemberReference)
export class MemberTierResolver {
  @FieldResolver(() => Tier, { nullable: true, description: "The member's current tier (its tier projection); null without one" })
  async tier(@Root() member: MemberReference, @Args() { locale }: LocaleArgs, @Ctx() ctx: ClusterContext): Promise<Tier | null> {
    const tier = await ctx.services.memberTiers.load(member.id);
    return tier ? ctx.services.tiers.localize(tier, locale) : null;
  }
}
