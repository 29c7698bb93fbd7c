import { Ctx, FieldResolver, Float, Resolver, Root } from 'type-graphql';
import { PointContext } from '../context';
import { MemberReference } from '../types/member.type';

/** Contributes `Member.pointBalance` to the auth subgraph's Member. */
@Resolver(() => MemberReference)
export class MemberPointsResolver {
  @FieldResolver(() => Float, { nullable: true, description: 'Points the member holds now (expired points never count)' })
  async pointBalance(@Root() member: MemberReference, @Ctx() ctx: PointContext): Promise<string | null> {
    const balance = await ctx.services.balances.load(member.id);
    return balance?.pointAmount ?? null;
  }
}
