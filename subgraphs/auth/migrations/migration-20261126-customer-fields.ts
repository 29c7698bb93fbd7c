import { Migration } from '@mikro-orm/migrations';

/**
 * v1 customers are members (contract section 5): members gain `email` (unique among members whatever
 * its case) and `language` (a BCP 47 locale tag). Birth date, gender and address existed already.
 */
export class Migration20261126CustomerFields extends Migration {
  async up(): Promise<void> {
    this.addSql(`
      alter table auth.member add column email text, add column language text;
      create unique index member_email_lower_uniq on auth.member (lower(email)) where email is not null;
    `);
  }
}
