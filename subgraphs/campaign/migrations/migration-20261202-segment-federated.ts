import { Migration } from '@mikro-orm/migrations';

/** The target segment's name is read from the cluster through federation: the copy kept with the campaign goes. */
export class Migration20261202CampaignSegmentFederated extends Migration {
  async up(): Promise<void> {
    this.addSql(`alter table campaign.campaign drop column target_segment_name;`);
  }
}
