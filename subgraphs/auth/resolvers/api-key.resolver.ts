import { Arg, Args, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { Access, Caller, Public } from '../../../core/auth/access';
import { Principal } from '../../../core/auth/principal';
import { IdArgs } from '../../../core/graphql/id-args';
import { OncePerRequest } from '../../../core/graphql/once-per-request';
import { PageArgs, PageType } from '../../../core/pagination';
import { AuthContext } from '../context';
import { AUTH } from '../contract';
import { ServiceApiKey } from '../entities/service-api-key';
import { ApiKeyExchangeArgs, ApiKeyListArgs, CreatedApiKey, GenerateApiKeyInput } from '../types/api-key.inputs';
import { ServiceAccessToken } from '../types/session.types';

const ServiceApiKeyPage = PageType(ServiceApiKey, 'ServiceApiKey');

@Resolver()
export class ApiKeyResolver {
  @Authorized(AUTH.permissions.serviceKeyManage)
  @Mutation(() => CreatedApiKey, {
    description: "Creates an API key; the key itself is returned only here. Staff only; the role can be no stronger than the creator's",
  })
  generateApiKey(@Arg('input') input: GenerateApiKeyInput, @Caller() caller: Principal, @Ctx() ctx: AuthContext) {
    return ctx.services.apiKeys.generate(input, caller);
  }

  @Authorized(Access.staff)
  @Query(() => ServiceApiKeyPage, { description: 'The API keys the caller created' })
  myApiKeys(@Args() args: PageArgs, @Caller() caller: Principal, @Ctx() ctx: AuthContext) {
    return ctx.services.apiKeys.listCreatedBy(caller, args);
  }

  @Authorized(AUTH.permissions.serviceKeyManage)
  @Query(() => ServiceApiKeyPage, { description: 'Every API key, revoked ones included, with its creator and last use' })
  apiKeys(@Args() args: ApiKeyListArgs, @Ctx() ctx: AuthContext) {
    return ctx.services.apiKeys.listAll(args);
  }

  @Authorized(AUTH.permissions.serviceKeyManage)
  @Mutation(() => Boolean)
  async revokeApiKey(@Args() { id }: IdArgs, @Caller() caller: Principal, @Ctx() ctx: AuthContext): Promise<boolean> {
    await ctx.services.apiKeys.revoke(id, caller);
    return true;
  }

  @Public()
  @OncePerRequest()
  @Mutation(() => ServiceAccessToken, { description: 'Exchanges an API key for an access token' })
  exchangeApiKey(@Args() { apiKey }: ApiKeyExchangeArgs, @Ctx() ctx: AuthContext) {
    return ctx.services.apiKeys.exchange(apiKey);
  }
}
