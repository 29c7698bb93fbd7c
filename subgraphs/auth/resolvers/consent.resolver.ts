import { Arg, Args, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { Access, Caller, Public } from '../../../core/auth/access';
import { Principal } from '../../../core/auth/principal';
import { IdArgs } from '../../../core/graphql/id-args';
import { LocaleArgs } from '../../../core/i18n';
import { AuthContext } from '../context';
import { AUTH } from '../contract';
import { ConsentVersion } from '../entities/consent-version';
import { AcceptConsentArgs, ConsentListArgs, ConsentStatus, PublishConsentVersionInput } from '../types/consent.types';

@Resolver(() => ConsentVersion)
export class ConsentResolver {
  @Public()
  @Query(() => [ConsentVersion], { description: 'Every published version, newest first' })
  consentVersions(@Args() { type, locale }: ConsentListArgs, @Ctx() ctx: AuthContext) {
    return ctx.services.consents.list(type, locale);
  }

  @Public()
  @Query(() => [ConsentVersion], { description: 'The version of each consent type in force now' })
  currentConsentVersions(@Args() { locale }: LocaleArgs, @Ctx() ctx: AuthContext) {
    return ctx.services.consents.current(locale);
  }

  @Authorized(AUTH.permissions.consentManage)
  @Mutation(() => ConsentVersion)
  publishConsentVersion(@Arg('input') input: PublishConsentVersionInput, @Ctx() ctx: AuthContext) {
    return ctx.services.consents.publish(input);
  }

  @Authorized(Access.member)
  @Mutation(() => [ConsentStatus], { description: 'The member of the token accepts a consent version' })
  acceptConsent(@Args() { consentVersionId }: AcceptConsentArgs, @Caller() member: Principal, @Ctx() ctx: AuthContext) {
    return ctx.services.consents.accept(member.id, consentVersionId);
  }

  @Authorized(Access.member)
  @Query(() => [ConsentStatus], { description: 'Where the member of the token stands with each consent type' })
  myConsentStatus(@Caller() member: Principal, @Ctx() ctx: AuthContext) {
    return ctx.services.consents.statusOf(member.id);
  }

  @Authorized(Access.selfBy('id'), AUTH.permissions.memberRead)
  @Query(() => [ConsentStatus], { description: 'Where a member stands with each consent type' })
  memberConsentStatus(@Args() { id }: IdArgs, @Ctx() ctx: AuthContext) {
    return ctx.services.consents.statusOf(id);
  }
}
