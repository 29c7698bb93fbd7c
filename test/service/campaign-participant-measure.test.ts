import { randomUUID } from 'node:crypto';
import { MikroORM } from '@mikro-orm/core';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { openModuleOrm } from '../../core/module';
import { campaignModule } from '../../subgraphs/campaign/module';
import { campaignMigrations } from '../../subgraphs/campaign/migrations';
import { createScratchDatabase, ScratchDatabase } from '../support/scratch-database';

/**
 * The migration that fixes each participation's measure at its join: participations joined before it
 * get theirs from their target (a count target is always 1) and, for a target of 1, from the campaign.
 */
let database: ScratchDatabase;
let orm: MikroORM<PostgreSqlDriver> | undefined;
beforeAll(async () => {
  database = await createScratchDatabase('svc_campaign_measure');
});
afterAll(async () => {
  await orm?.close();
  await database?.drop();
});

it('backfills measure: a target other than 1 is amount, a target of 1 is purchases unless the campaign has min_purchase 1', async () => {
  const { Migration20261204CampaignParticipantMeasure: _latest, ...before } = campaignMigrations;
  orm = await openModuleOrm({ ...campaignModule, migrations: before }, database.url);
  const campaign = async (minPurchase: number | null) => {
    const id = randomUUID();
    await orm!.em.fork().execute(
      `insert into campaign.campaign (id, name, type, status, start_date, end_date, rules, created_at, updated_at)
       values (?, 'c', 'promotion', 'active', now() - interval '1 day', now() + interval '1 day', ?::jsonb, now(), now())`,
      [id, JSON.stringify({ minPurchase, maxUses: null, perCustomerLimit: 1 })],
    );
    return id;
  };
  const participant = async (campaignId: string, target: string) => {
    const id = randomUUID();
    await orm!.em.fork().execute(`insert into campaign.participant (id, campaign_id, customer_id, joined_at, target, updated_at) values (?, ?, ?, now(), ?, now())`, [id, campaignId, randomUUID(), target]);
    return id;
  };
  const [countNow, amountNow, amountOfOne] = [await campaign(null), await campaign(50), await campaign(1)];
  const expected: Record<string, string> = {
    [await participant(countNow, '1')]: 'purchases', // joined as counted, still counted
    [await participant(countNow, '100')]: 'amount', // joined under min_purchase 100, since cleared
    [await participant(amountNow, '1')]: 'purchases', // joined as counted, min_purchase set since
    [await participant(amountNow, '50')]: 'amount',
    [await participant(amountOfOne, '1')]: 'amount', // min_purchase 1: a target of 1 reads as its amount
  };
  await orm.close();

  orm = await openModuleOrm(campaignModule, database.url);
  const rows = await orm.em.fork().execute<Array<{ id: string; measure: string }>>('select id, measure from campaign.participant');
  expect(Object.fromEntries(rows.map((row) => [row.id, row.measure]))).toEqual(expected);
  await expect(orm.em.fork().execute(`update campaign.participant set measure = 'visits'`)).rejects.toThrow(/participant_measure_check/);
});
