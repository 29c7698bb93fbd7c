import { MikroORM } from '@mikro-orm/core';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { handle, HandledCall } from '../../../core/domain-calls';
import { forbidden } from '../../../core/errors';
import { POINT } from '../contract';
import { PointMovementInput } from '../types/point.types';
import { LedgerService } from './ledger.service';
import { PointService } from './point.service';

/**
 * The ledger's answers to other domains in its process (POINT.calls), on units of work of their own:
 * what `Member.pointBalance` and `spendPoints` answer through the gateway, without it. The spend is
 * gated by `point:manage` as `spendPoints` is, and made with PointService.spendOnce.
 */
export function pointCalls(orm: MikroORM<PostgreSqlDriver>, ledger: LedgerService): HandledCall[] {
  return [
    handle(POINT.calls.balance, async ({ memberId }) => {
      const balances = await new PointService(orm.em.fork(), ledger).balances([memberId]);
      return { pointAmount: balances.get(memberId)!.pointAmount };
    }),
    handle(POINT.calls.spend, async ({ movement, idempotencyKey }, { caller }) => {
      if (!caller.can(POINT.permissions.manage)) throw forbidden();
      const input = Object.assign(new PointMovementInput(), movement);
      const transaction = await new PointService(orm.em.fork(), ledger).spendOnce(input, caller, idempotencyKey);
      return { transactionId: transaction.id };
    }),
  ];
}
