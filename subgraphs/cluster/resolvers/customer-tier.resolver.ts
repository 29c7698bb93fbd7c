import { Arg, Args, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { Public } from '../../../core/auth/access';
import { IdArgs } from '../../../core/graphql/id-args';
import { ClusterContext } from '../context';
import { CLUSTER } from '../contract';
import { Tier } from '../entities/tier';
import { TierProjection } from '../entities/tier-projection';
import { ChangeCustomerTierInput } from '../types/customer-tier.types';

/** v1 customers' tiers: where a new customer starts, and staff's manual changes. */
@Resolver()
export class CustomerTierResolver {
  @Public()
  @Query(() => Tier, { nullable: true, description: 'The tier a new customer starts in: the lowest active, non-special tier; null when there is none' })
  entryTier(@Ctx() ctx: ClusterContext) {
    return ctx.services.customerTiers.entryTier();
  }

  @Authorized(CLUSTER.permissions.tierManage)
  @Mutation(() => TierProjection, { description: 'Moves a customer to a tier by hand (by name or id), keeping the reason in its history' })
  changeCustomerTier(@Args() { id }: IdArgs, @Arg('input') input: ChangeCustomerTierInput, @Ctx() ctx: ClusterContext) {
    return ctx.services.customerTiers.change(id, input);
  }
}
