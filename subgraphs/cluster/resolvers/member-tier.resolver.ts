import { Args, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import { RequestContext } from '../../../core/context';
import { LocaleArgs } from '../../../core/i18n';
import { ClusterDeps } from '../cluster-deps';
import { Tier } from '../entities/tier';
import { localized } from '../services/tier.service';
import { MemberReference } from '../types/member.type';

/** Contributes `Member.tier` to the auth subgraph's Member. */
@Resolver(() => MemberReference)
export class MemberTierResolver {
  constructor(private readonly deps: ClusterDeps) {}

  @FieldResolver(() => Tier, { nullable: true, description: "The member's current tier (its tier projection); null without one" })
  async tier(@Root() member: MemberReference, @Args() { locale }: LocaleArgs, @Ctx() ctx: RequestContext): Promise<Tier | null> {
    const tier = await this.deps.memberTierLoaders.for(ctx).load(member.id);
    return tier ? localized(tier, locale) : null;
  }
}
