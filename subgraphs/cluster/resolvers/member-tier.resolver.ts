import { Args, Ctx, Directive, FieldResolver, Resolver, Root } from 'type-graphql';
import { LocaleArgs } from '../../../core/i18n';
import { ClusterContext } from '../context';
import { Tier } from '../entities/tier';
import { MemberReference } from '../types/member.type';

/** Contributes `Member.tier` to the auth subgraph's Member. */
@Resolver(() => MemberReference)
export class MemberTierResolver {
  @Directive('@requires(fields: "projectedTierId")')
  @FieldResolver(() => Tier, {
    nullable: true,
    description: "The member's current tier (its tier projection; for a new customer not placed yet, the entry tier its creation promised); null without one",
  })
  async tier(@Root() member: MemberReference, @Args() { locale }: LocaleArgs, @Ctx() ctx: ClusterContext): Promise<Tier | null> {
    const tier = await ctx.services.memberTiers.load(member);
    return tier ? ctx.services.tiers.localize(tier, locale) : null;
  }
}
