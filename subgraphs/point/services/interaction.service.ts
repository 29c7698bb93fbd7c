import { EntityManager } from '@mikro-orm/postgresql';
import { offsetOf, Page, pageOf } from '../../../core/pagination';
import { MemberInteraction, MemberInteractionArgs } from '../types/purchase.types';
import { bounds } from './point.service';

/**
 * A member's interactions that the point domain knows of, newest first: purchases recorded through the
 * API (`purchase`, channel `api`, at when they happened), receipts approved for points (`purchase`,
 * channel `receipt`, at their approval), refunds (`refund`, channel `api`; points negative), and what
 * the member did elsewhere (services/member-activity.ts): bookings (`booking`) and their check-ins
 * (`visit`), channel `booking`, and campaign joins (`campaign_joined`, channel `campaign`).
 */
const INTERACTIONS = `
  select p.id, 'purchase' as type, 'api' as channel,
         'Purchase' || coalesce(' at store ' || p.store_id, '') || coalesce(' (' || p.category || ')', '') as description,
         p.amount, p.points_earned, p.occurred_at as created_at
    from point.purchase p where p.member_id = ?
  union all
  select r.id, 'refund', 'api', 'Refund of purchase ' || r.purchase_id, r.amount, -r.points_reversed, r.created_at
    from point.purchase_refund r where r.member_id = ?
  union all
  select v.id, 'purchase', 'receipt', 'Receipt' || coalesce(' at store ' || v.shop_id, ''), v.money, t.amount, t.created_at
    from point.receipt_verification v join point.point_transaction t on t.id = v.point_transaction_id
   where v.member_id = ? and v.status = 'APPROVED'
  union all
  select a.id, a.type, a.channel, a.description, null, 0, a.occurred_at
    from point.member_activity a where a.member_id = ?`;

export class InteractionService {
  constructor(private readonly em: EntityManager) {}

  async ofMember(args: MemberInteractionArgs): Promise<Page<MemberInteraction>> {
    const [from, to] = bounds(args.dateFrom, args.dateTo);
    const filter = `from (${INTERACTIONS}) i where (?::text is null or i.type = ?) and i.created_at >= ? and i.created_at < ?`;
    const params = [args.memberId, args.memberId, args.memberId, args.memberId, args.type ?? null, args.type ?? null, from, to];
    const [{ total }] = await this.em.execute(`select count(*)::int as total ${filter}`, params);
    const rows: Array<Record<string, any>> = await this.em.execute(
      `select i.id, i.type, i.channel, i.description, i.amount::text as amount, i.points_earned::text as points_earned, i.created_at
         ${filter} order by i.created_at desc, i.id desc limit ? offset ?`,
      [...params, args.limit, offsetOf(args)],
    );
    const items = rows.map((row) => ({
      id: row.id,
      type: row.type,
      channel: row.channel,
      description: row.description,
      amount: row.amount,
      pointsEarned: row.points_earned,
      createdAt: new Date(row.created_at),
    }));
    return pageOf(items, total, args);
  }
}
