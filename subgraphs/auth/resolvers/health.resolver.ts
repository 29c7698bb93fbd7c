import { Ctx, Directive, Field, ObjectType, Query, Resolver } from 'type-graphql';
import { Public } from '../../../core/auth/access';
import { RequestContext } from '../../../core/context';

@Directive('@shareable')
@ObjectType()
export class Health {
  @Field() ok: boolean;
}

@Resolver()
export class HealthResolver {
  @Public()
  @Query(() => Health, { description: 'Answers only when this subgraph reaches its database' })
  async health(@Ctx() ctx: RequestContext): Promise<Health> {
    await ctx.em.getConnection().execute('select 1');
    return { ok: true };
  }
}
