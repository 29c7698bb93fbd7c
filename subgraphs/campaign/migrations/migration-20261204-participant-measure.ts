import { Migration } from '@mikro-orm/migrations';

/**
 * What moves each participation, fixed when it joins (`purchases` counted, or their `amount` summed
 * towards a `minPurchase` target), so that a later change of the campaign's rules moves it as it joined.
 * Rows before this: a target other than 1 was a `minPurchase` (a count target is always 1); a target of
 * 1 was counted unless the campaign's `minPurchase` is 1 now.
 */
export class Migration20261204CampaignParticipantMeasure extends Migration {
  async up(): Promise<void> {
    this.addSql(`
      alter table campaign.participant add column measure text;
      update campaign.participant p
         set measure = case when p.target <> 1 or (c.rules->>'minPurchase')::numeric = 1 then 'amount' else 'purchases' end
        from campaign.campaign c where c.id = p.campaign_id;
      alter table campaign.participant alter column measure set not null,
        add constraint participant_measure_check check (measure in ('purchases', 'amount'));`);
  }
}
