import { Args, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { Access, Caller, Public } from '../../../core/auth/access';
import { Principal } from '../../../core/auth/principal';
import { OncePerRequest } from '../../../core/graphql/once-per-request';
import { PageArgs, PageType } from '../../../core/pagination';
import { AuthContext } from '../context';
import { AUTH } from '../contract';
import { OAuthClient } from '../entities/oauth-client';
import {
  OAuthClientArgs,
  RotatedOAuthClientSecret,
  SetOAuthClientActiveArgs,
  OAuthAccessTokenArgs,
  OAuthAuthorizationOutcome,
  OAuthClientCallOutcome,
  OAuthDecisionArgs,
  OAuthRequestArgs,
  OAuthTokenOutcome,
  RegisterOAuthClientArgs,
  RegisteredOAuthClient,
} from '../types/oauth.types';
import { ServiceAccessToken } from '../types/session.types';

const OAuthClientPage = PageType(OAuthClient, 'OAuthClient');

/** The OAuth 2.0 authorization server (contract section 3); its HTTP endpoints are the REST adapter's /oauth/*. */
@Resolver()
export class OAuthResolver {
  @Authorized(AUTH.permissions.oauthClientManage)
  @Mutation(() => RegisteredOAuthClient, { description: 'Registers an OAuth client (RFC 7591); needs the admin scope. The secret is shown only here' })
  registerOAuthClient(@Args() { metadata }: RegisterOAuthClientArgs, @Caller() caller: Principal, @Ctx() ctx: AuthContext) {
    return ctx.services.oauthClients.register(metadata, caller);
  }

  @Authorized(AUTH.permissions.oauthClientManage)
  @Query(() => OAuthClientPage, { description: 'Every registered OAuth client, disabled ones included, newest first' })
  oauthClients(@Args() args: PageArgs, @Ctx() ctx: AuthContext) {
    return ctx.services.oauthClients.list(args);
  }

  @Authorized(AUTH.permissions.oauthClientManage)
  @Mutation(() => OAuthClient, { description: 'Disables a client (its tokens are revoked at once, everywhere) or enables it again' })
  setOAuthClientActive(@Args() { clientId, active }: SetOAuthClientActiveArgs, @Ctx() ctx: AuthContext) {
    return ctx.services.oauthClients.setActive(clientId, active);
  }

  @Authorized(AUTH.permissions.oauthClientManage)
  @Mutation(() => Boolean, { description: 'Deletes a client, its codes and tokens' })
  async deleteOAuthClient(@Args() { clientId }: OAuthClientArgs, @Ctx() ctx: AuthContext): Promise<boolean> {
    await ctx.services.oauthClients.delete(clientId);
    return true;
  }

  @Authorized(AUTH.permissions.oauthClientManage)
  @Mutation(() => RotatedOAuthClientSecret, { description: "A confidential client's new secret, shown only here; the old one and the client's tokens stop working" })
  rotateOAuthClientSecret(@Args() { clientId }: OAuthClientArgs, @Ctx() ctx: AuthContext) {
    return ctx.services.oauthClients.rotateSecret(clientId);
  }

  @Public()
  @Query(() => OAuthAuthorizationOutcome, { description: 'Checks an authorization request (GET /oauth/authorize)' })
  oauthAuthorizationRequest(@Args() { params }: OAuthRequestArgs, @Ctx() ctx: AuthContext) {
    return ctx.services.oauthAuthorization.check(params);
  }

  @Public()
  @OncePerRequest()
  @Mutation(() => OAuthAuthorizationOutcome, { description: "The consent page's answer: staff sign-in and allow (a code) or deny" })
  oauthAuthorizationDecision(@Args() { params, decision, email, password }: OAuthDecisionArgs, @Ctx() ctx: AuthContext) {
    return ctx.services.oauthAuthorization.decide(params, decision, email, password);
  }

  @Public()
  @OncePerRequest()
  @Mutation(() => OAuthTokenOutcome, { description: 'The token endpoint (POST /oauth/token): client-authenticated by its parameters or HTTP Basic' })
  oauthToken(@Args() { params, authorization }: OAuthRequestArgs, @Ctx() ctx: AuthContext) {
    return ctx.services.oauthTokens.token(params, authorization);
  }

  @Public()
  @OncePerRequest()
  @Mutation(() => OAuthClientCallOutcome, { description: 'Token revocation (RFC 7009), client-authenticated' })
  oauthRevoke(@Args() { params, authorization }: OAuthRequestArgs, @Ctx() ctx: AuthContext) {
    return ctx.services.oauthTokens.revoke(params, authorization);
  }

  @Public()
  @OncePerRequest()
  @Mutation(() => OAuthClientCallOutcome, { description: 'Token introspection (RFC 7662), client-authenticated' })
  oauthIntrospect(@Args() { params, authorization }: OAuthRequestArgs, @Ctx() ctx: AuthContext) {
    return ctx.services.oauthTokens.introspect(params, authorization, ctx.services.oauthIssuer);
  }

  @Authorized(Access.service)
  @OncePerRequest()
  @Mutation(() => ServiceAccessToken, { description: "Exchanges an OAuth access token for the platform token it stands for; the REST adapter's own identity only" })
  exchangeOAuthAccessToken(@Args() { accessToken }: OAuthAccessTokenArgs, @Caller() caller: Principal, @Ctx() ctx: AuthContext) {
    return ctx.services.oauthTokens.exchange(accessToken, caller);
  }
}
