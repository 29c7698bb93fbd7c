import { Arg, Args, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { NotificationContext } from '../context';
import { NOTIFICATION } from '../contract';
import { MailTemplate } from '../entities/mail-template';
import {
  CreateMailTemplateInput,
  MailTemplateIdArgs,
  MailTemplateListArgs,
  MailTemplatePage,
  RenderedMail,
  RenderMailInput,
  RenderMailTemplateArgs,
  UpdateMailTemplateInput,
} from '../types/mail-template.types';

/** Mail templates: notification:manage writes, reads and renders them (the auth service renders its mails as a service holding it). */
@Resolver(() => MailTemplate)
export class MailTemplateResolver {
  @Authorized(NOTIFICATION.permissions.manage)
  @Mutation(() => MailTemplate, { description: 'Writes a mail template; 400 on a field or template that breaks a rule, 409 when the event already has that version' })
  createMailTemplate(@Arg('input') input: CreateMailTemplateInput, @Ctx() ctx: NotificationContext) {
    return ctx.services.mailTemplates.create(input);
  }

  @Authorized(NOTIFICATION.permissions.manage)
  @Query(() => MailTemplatePage, { description: 'Live mail templates, newest first, filtered' })
  mailTemplates(@Args() args: MailTemplateListArgs, @Ctx() ctx: NotificationContext) {
    return ctx.services.mailTemplates.list(args);
  }

  @Authorized(NOTIFICATION.permissions.manage)
  @Query(() => MailTemplate, { description: 'One live mail template; 404 otherwise' })
  mailTemplate(@Args() { id }: MailTemplateIdArgs, @Ctx() ctx: NotificationContext) {
    return ctx.services.mailTemplates.get(id);
  }

  @Authorized(NOTIFICATION.permissions.manage)
  @Mutation(() => MailTemplate, { description: 'Changes the given fields of a live mail template' })
  updateMailTemplate(@Args() { id }: MailTemplateIdArgs, @Arg('input') input: UpdateMailTemplateInput, @Ctx() ctx: NotificationContext) {
    return ctx.services.mailTemplates.update(id, input);
  }

  @Authorized(NOTIFICATION.permissions.manage)
  @Mutation(() => MailTemplate, { description: 'Soft-deletes a mail template' })
  deleteMailTemplate(@Args() { id }: MailTemplateIdArgs, @Ctx() ctx: NotificationContext) {
    return ctx.services.mailTemplates.softDelete(id);
  }

  @Authorized(NOTIFICATION.permissions.manage)
  @Query(() => RenderedMail, { description: 'Renders a mail template by id in one language with the given variables (HTML content escapes them)' })
  renderMailTemplateById(@Args() { id }: MailTemplateIdArgs, @Arg('input', () => RenderMailInput, { nullable: true }) input: RenderMailInput | undefined, @Ctx() ctx: NotificationContext) {
    return ctx.services.mailTemplates.render(id, input?.locale, input?.variables ?? {});
  }

  @Authorized(NOTIFICATION.permissions.manage)
  @Query(() => RenderedMail, { description: "Renders the template of an event (the given version, else the newest); 404 when the event has none" })
  renderMailTemplate(@Args() { event, version, locale, variables }: RenderMailTemplateArgs, @Ctx() ctx: NotificationContext) {
    return ctx.services.mailTemplates.renderForEvent(event, version, locale, variables ?? {});
  }
}
