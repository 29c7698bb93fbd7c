import { Args, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { Caller, Public } from '../../../core/auth/access';
import { Principal } from '../../../core/auth/principal';
import { OncePerRequest } from '../../../core/graphql/once-per-request';
import { AuthContext } from '../context';
import { AccessTokenCheck, RefreshArgs, TokenPair } from '../types/session.types';

@Resolver()
export class SessionResolver {
  @Authorized()
  @Query(() => AccessTokenCheck, { description: 'Whether the Bearer token belongs to a session that still stands' })
  async checkAccessTokenSession(@Caller() caller: Principal, @Ctx() ctx: AuthContext): Promise<AccessTokenCheck> {
    return { valid: await ctx.services.sessions.isActive(caller) };
  }

  @Public()
  @OncePerRequest()
  @Mutation(() => TokenPair, { description: 'Rotates a refresh token: the given one is used up' })
  refreshAccessToken(@Args() { refreshToken }: RefreshArgs, @Ctx() ctx: AuthContext) {
    return ctx.services.sessions.refresh(refreshToken);
  }
}
