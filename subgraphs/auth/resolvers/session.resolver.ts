import { Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { requirePrincipal } from '../../../core/auth/principal';
import { RequestContext } from '../../../core/context';
import { AuthDeps } from '../auth-deps';
import { SessionService } from '../services/session.service';
import { AccessTokenCheck, RefreshArgs, TokenPair } from '../types/session.types';
import { OncePerRequest } from '../../../core/graphql/once-per-request';

@Resolver()
export class SessionResolver {
  constructor(private readonly deps: AuthDeps) {}

  @Query(() => AccessTokenCheck, { description: 'Whether the Bearer token belongs to a session that still stands' })
  async checkAccessTokenSession(@Ctx() ctx: RequestContext): Promise<AccessTokenCheck> {
    const principal = requirePrincipal(ctx.principal);
    return { valid: await new SessionService(ctx.em, this.deps).isActive(principal) };
  }

  @Mutation(() => TokenPair, { description: 'Rotates a refresh token: the given one is used up' })
  @OncePerRequest()
  refreshAccessToken(@Args() { refreshToken }: RefreshArgs, @Ctx() ctx: RequestContext): Promise<TokenPair> {
    return new SessionService(ctx.em, this.deps).refresh(refreshToken);
  }
}
