import { EntityManager } from '@mikro-orm/postgresql';
import { FieldError, validationError } from '../../../core/errors';
import { CampaignAnalytics, CampaignAnalyticsArgs, CampaignDateMetrics, CampaignMetrics } from '../types/campaign-analytics.types';
import { parseCampaignDate } from './campaign-input';
import { CampaignService } from './campaign.service';

interface Row {
  period: string;
  participants: string;
  conversions: string;
  revenue: string;
  purchases: string;
}

const metricsOf = (row: Omit<Row, 'period'>): CampaignMetrics => {
  const participants = Number(row.participants);
  const conversions = Number(row.conversions);
  const purchases = Number(row.purchases);
  return {
    participants,
    conversions,
    conversionRate: participants > 0 ? Math.round((conversions / participants) * 10000) / 10000 : 0,
    revenue: Number(row.revenue),
    averageOrderValue: purchases > 0 ? Number((Number(row.revenue) / purchases).toFixed(2)) : 0,
  };
};

/**
 * Campaign analytics (Part 3): in the period (the campaign's window unless narrowed), participations
 * joined, completed, and the participants' purchases inside the window after joining (revenue net of
 * refunds, average order value over the purchases not wholly refunded), in total and by day, week or
 * month (UTC). Sums are PostgreSQL numerics.
 */
export async function campaignAnalytics(em: EntityManager, campaigns: CampaignService, args: CampaignAnalyticsArgs): Promise<CampaignAnalytics> {
  const campaign = await campaigns.find(args.id);
  const errors: FieldError[] = [];
  const from = args.dateFrom !== undefined ? parseCampaignDate(args.dateFrom) : campaign.startDate;
  const to = args.dateTo !== undefined ? parseCampaignDate(args.dateTo, true) : campaign.endDate;
  if (!from) errors.push({ field: 'dateFrom', message: 'date_from is an ISO 8601 timestamp or a date YYYY-MM-DD' });
  if (!to) errors.push({ field: 'dateTo', message: 'date_to is an ISO 8601 timestamp or a date YYYY-MM-DD' });
  if (from && to && to < from) errors.push({ field: 'dateTo', message: 'date_to is not before date_from' });
  if (errors.length > 0) throw validationError(errors);
  const unit = args.groupBy ?? 'day';
  const rows: Row[] = await em.execute(
    `with facts as (
       select joined_at as at, 1 as joined, 0 as completed, 0::numeric as amount, 0 as purchases from campaign.participant where campaign_id = ?
       union all
       select completed_at, 0, 1, 0, 0 from campaign.participant where campaign_id = ? and status = 'completed'
       union all
       select pp.occurred_at, 0, 0, pp.amount - pp.refunded_amount, case when pp.refunded_amount < pp.amount then 1 else 0 end from campaign.participant_purchase pp join campaign.participant p on p.id = pp.participant_id where p.campaign_id = ?
     )
     select to_char(date_trunc(?, at at time zone 'UTC'), 'YYYY-MM-DD') as period, sum(joined)::text as participants, sum(completed)::text as conversions,
            sum(amount)::numeric(14,2)::text as revenue, sum(purchases)::text as purchases
       from facts where at >= ? and at <= ? group by 1 order by 1`,
    [campaign.id, campaign.id, campaign.id, unit, from, to],
  );
  const byDate: CampaignDateMetrics[] = rows.map((row) => ({ date: row.period, ...metricsOf(row) }));
  const [total] = await em.execute<Array<Omit<Row, 'period'>>>(
    `select coalesce(sum(participants::numeric), 0)::text as participants, coalesce(sum(conversions::numeric), 0)::text as conversions,
            coalesce(sum(revenue::numeric), 0)::numeric(14,2)::text as revenue, coalesce(sum(purchases::numeric), 0)::text as purchases
       from jsonb_to_recordset(?::jsonb) as r(participants text, conversions text, revenue text, purchases text)`,
    [JSON.stringify(rows)],
  );
  return { campaignId: campaign.id, metrics: metricsOf(total), byDate };
}
