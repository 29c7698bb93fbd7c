import { AUTH } from '../contract';
import { Arg, Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { requireKind, requirePermission, requireSelfOrPermission } from '../../../core/auth/principal';
import { RequestContext } from '../../../core/context';
import { LocaleArgs } from '../../../core/i18n';
import { ConsentVersion } from '../entities/consent-version';
import { ConsentService } from '../services/consent.service';
import { AcceptConsentArgs, ConsentListArgs, ConsentStatus, PublishConsentVersionInput } from '../types/consent.types';
import { IdArgs } from '../../../core/graphql/id-args';


@Resolver(() => ConsentVersion)
export class ConsentResolver {
  @Query(() => [ConsentVersion], { description: 'Every published version, newest first' })
  consentVersions(@Args() { type, locale }: ConsentListArgs, @Ctx() ctx: RequestContext): Promise<ConsentVersion[]> {
    return new ConsentService(ctx.em).list(type, locale);
  }

  @Query(() => [ConsentVersion], { description: 'The version of each consent type in force now' })
  currentConsentVersions(@Args() { locale }: LocaleArgs, @Ctx() ctx: RequestContext): Promise<ConsentVersion[]> {
    return new ConsentService(ctx.em).current(locale);
  }

  @Mutation(() => ConsentVersion)
  publishConsentVersion(@Arg('input') input: PublishConsentVersionInput, @Ctx() ctx: RequestContext): Promise<ConsentVersion> {
    requirePermission(ctx.principal, AUTH.permissions.consentManage);
    return new ConsentService(ctx.em).publish(input);
  }

  @Mutation(() => [ConsentStatus], { description: 'The member of the token accepts a consent version' })
  acceptConsent(@Args() { consentVersionId }: AcceptConsentArgs, @Ctx() ctx: RequestContext): Promise<ConsentStatus[]> {
    return new ConsentService(ctx.em).accept(requireKind(ctx.principal, 'member').id, consentVersionId);
  }

  @Query(() => [ConsentStatus], { description: 'Where the member of the token stands with each consent type' })
  myConsentStatus(@Ctx() ctx: RequestContext): Promise<ConsentStatus[]> {
    return new ConsentService(ctx.em).statusOf(requireKind(ctx.principal, 'member').id);
  }

  @Query(() => [ConsentStatus], { description: 'Where a member stands with each consent type' })
  memberConsentStatus(@Args() { id }: IdArgs, @Ctx() ctx: RequestContext): Promise<ConsentStatus[]> {
    requireSelfOrPermission(ctx.principal, id, AUTH.permissions.memberRead);
    return new ConsentService(ctx.em).statusOf(id);
  }
}
