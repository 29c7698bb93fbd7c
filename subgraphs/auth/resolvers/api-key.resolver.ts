import { AUTH } from '../contract';
import { Arg, Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { requireKind, requirePermission } from '../../../core/auth/principal';
import { RequestContext } from '../../../core/context';
import { PageArgs, PageType } from '../../../core/pagination';
import { AuthDeps } from '../auth-deps';
import { ServiceApiKey } from '../entities/service-api-key';
import { ApiKeyService } from '../services/api-key.service';
import { ApiKeyExchangeArgs, ApiKeyListArgs, CreatedApiKey, GenerateApiKeyInput } from '../types/api-key.inputs';
import { ServiceAccessToken } from '../types/session.types';
import { IdArgs } from '../../../core/graphql/id-args';
import { OncePerRequest } from '../../../core/graphql/once-per-request';

const ServiceApiKeyPage = PageType(ServiceApiKey, 'ServiceApiKey');

@Resolver()
export class ApiKeyResolver {
  constructor(private readonly deps: AuthDeps) {}

  @Mutation(() => CreatedApiKey, {
    description: "Creates an API key; the key itself is returned only here. Staff only; the role can be no stronger than the creator's",
  })
  generateApiKey(@Arg('input') input: GenerateApiKeyInput, @Ctx() ctx: RequestContext): Promise<CreatedApiKey> {
    const principal = requirePermission(ctx.principal, AUTH.permissions.serviceKeyManage);
    return new ApiKeyService(ctx.em, this.deps).generate(input, principal);
  }

  @Query(() => ServiceApiKeyPage, { description: 'The API keys the caller created' })
  myApiKeys(@Args() args: PageArgs, @Ctx() ctx: RequestContext) {
    const principal = requireKind(ctx.principal, 'staff');
    return new ApiKeyService(ctx.em, this.deps).listCreatedBy(principal, args);
  }

  @Query(() => ServiceApiKeyPage, { description: 'Every API key, revoked ones included, with its creator and last use' })
  apiKeys(@Args() args: ApiKeyListArgs, @Ctx() ctx: RequestContext) {
    requirePermission(ctx.principal, AUTH.permissions.serviceKeyManage);
    return new ApiKeyService(ctx.em, this.deps).listAll(args);
  }

  @Mutation(() => Boolean)
  async revokeApiKey(@Args() { id }: IdArgs, @Ctx() ctx: RequestContext): Promise<boolean> {
    const principal = requirePermission(ctx.principal, AUTH.permissions.serviceKeyManage);
    await new ApiKeyService(ctx.em, this.deps).revoke(id, principal);
    return true;
  }

  @Mutation(() => ServiceAccessToken, { description: 'Exchanges an API key for an access token' })
  @OncePerRequest()
  exchangeApiKey(@Args() { apiKey }: ApiKeyExchangeArgs, @Ctx() ctx: RequestContext): Promise<ServiceAccessToken> {
    return new ApiKeyService(ctx.em, this.deps).exchange(apiKey);
  }
}
