import { Ctx, FieldResolver, Float, Resolver, Root } from 'type-graphql';
import { RequestContext } from '../../../core/context';
import { PointDeps } from '../point-deps';
import { MemberReference } from '../types/member.type';

/** Contributes `Member.pointBalance` to the auth subgraph's Member. */
@Resolver(() => MemberReference)
export class MemberPointsResolver {
  constructor(private readonly deps: PointDeps) {}

  @FieldResolver(() => Float, { nullable: true, description: 'Points the member holds now (expired points never count)' })
  async pointBalance(@Root() member: MemberReference, @Ctx() ctx: RequestContext): Promise<string | null> {
    const balance = await this.deps.balanceLoaders.for(ctx).load(member.id);
    return balance?.pointAmount ?? null;
  }
}
