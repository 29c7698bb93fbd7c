import { Arg, Args, Authorized, Ctx, Mutation, Resolver } from 'type-graphql';
import { Access, Caller } from '../../../core/auth/access';
import { Principal } from '../../../core/auth/principal';
import { IdArgs } from '../../../core/graphql/id-args';
import { AuthContext } from '../context';
import { AUTH } from '../contract';
import { Member } from '../entities/member';
import { CreateCustomerInput, LinkChatappArgs, UpdateCustomerInput } from '../types/customer.inputs';
import { CustomerCreation, CustomerDeletion } from '../types/customer.types';

/** v1 customers: members written with the v1 fields (contract section 5). */
@Resolver()
export class CustomerResolver {
  @Authorized(AUTH.permissions.memberManage)
  @Mutation(() => CustomerCreation, { description: 'Creates an active member with the v1 customer fields, in the entry tier' })
  createCustomer(@Arg('input') input: CreateCustomerInput, @Ctx() ctx: AuthContext) {
    return ctx.services.customers.create(input);
  }

  @Authorized(Access.selfBy('id'), AUTH.permissions.memberManage)
  @Mutation(() => Member, { description: 'Changes the given v1 customer fields; a member changes only itself' })
  updateCustomer(@Args() { id }: IdArgs, @Arg('input') input: UpdateCustomerInput, @Caller() caller: Principal, @Ctx() ctx: AuthContext) {
    return ctx.services.customers.update(id, input, caller);
  }

  @Authorized(Access.selfBy('id'), AUTH.permissions.memberManage)
  @Mutation(() => Member, { description: 'Links the chat-app identity of a login code to the member' })
  linkCustomerChatapp(@Args() { id, code, appId }: LinkChatappArgs, @Ctx() ctx: AuthContext) {
    return ctx.services.customers.linkChatapp(id, code, appId);
  }

  @Authorized(AUTH.permissions.memberDelete)
  @Mutation(() => CustomerDeletion, { description: 'Soft-deletes a member: erases its personal data, ends its sessions, announces customer.deleted' })
  deleteCustomer(@Args() { id }: IdArgs, @Ctx() ctx: AuthContext) {
    return ctx.services.customers.delete(id);
  }
}
