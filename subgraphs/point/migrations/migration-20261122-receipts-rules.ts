import { Migration } from '@mikro-orm/migrations';

/**
 * Shop point rules (a conversion rate per shop, with one fixed default rule) and receipt
 * verifications (an uploaded receipt image, reviewed automatically or by staff, credited once).
 */
export class Migration20261122PointReceiptsRules extends Migration {
  async up(): Promise<void> {
    this.addSql(`
      create table point.point_shop_rule (
        id uuid primary key,
        shop_id text check (shop_id <> ''),
        name_en text not null,
        name_th text,
        name_cn text,
        description_en text,
        description_th text,
        description_cn text,
        conversion_rate numeric(20, 4) not null check (conversion_rate > 0),
        is_fixed boolean not null default false,
        is_active boolean not null default true,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        deleted_at timestamptz,
        -- The default rule (no shop) is the one fixed rule.
        constraint point_shop_rule_fixed_is_default check (is_fixed = (shop_id is null)),
        constraint point_shop_rule_default_not_deleted check (not (is_fixed and deleted_at is not null))
      );
      -- One live rule per shop, and one live default rule (shop_id null).
      create unique index point_shop_rule_live_shop_uidx on point.point_shop_rule ((coalesce(shop_id, ''))) where deleted_at is null;
      create index point_shop_rule_list_idx on point.point_shop_rule (is_fixed desc, created_at desc, id) where deleted_at is null;

      insert into point.point_shop_rule (id, shop_id, name_en, name_th, name_cn, description_en, description_th, description_cn, conversion_rate, is_fixed, is_active)
      values (gen_random_uuid(), null, 'Default rule', 'กฎเริ่มต้น', '默认规则',
              '1 point per currency unit spent, for shops without their own rule',
              '1 คะแนนต่อการใช้จ่าย 1 หน่วยเงิน สำหรับร้านค้าที่ไม่มีกฎของตนเอง',
              '没有专属规则的商店：每消费 1 个货币单位得 1 积分',
              1, true, true);

      create table point.receipt_verification (
        id uuid primary key,
        member_id uuid not null,
        status text not null check (status in ('PENDING', 'PROCESSING', 'APPROVED', 'REJECTED')),
        receipt_image_url text not null,
        money numeric(20, 2) check (money > 0),
        point_rule_id uuid references point.point_shop_rule (id),
        review_reason text,
        review_by_id uuid,
        shop_id text,
        category_id text,
        receipt_id text,
        point_transaction_id uuid references point.point_transaction (id),
        created_at timestamptz not null,
        updated_at timestamptz not null,
        constraint receipt_verification_approved_credited
          check (status <> 'APPROVED' or (money is not null and point_rule_id is not null and point_transaction_id is not null))
      );
      create index receipt_verification_member_idx on point.receipt_verification (member_id, created_at desc, id desc);
      create index receipt_verification_status_idx on point.receipt_verification (status, created_at desc, id desc);
      create index receipt_verification_created_idx on point.receipt_verification (created_at desc, id desc);
      -- An extracted receipt credits points once.
      create unique index receipt_verification_approved_receipt_uidx on point.receipt_verification (receipt_id)
        where status = 'APPROVED' and receipt_id is not null;

      -- At most one ledger entry per verification.
      create unique index point_transaction_receipt_uidx on point.point_transaction (receipt_verification_id)
        where receipt_verification_id is not null;
    `);
  }
}
