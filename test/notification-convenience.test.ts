import { usePlatform } from './support/use-platform';

const { platform, marketing, tenant, admin, members } = usePlatform({ staff: ['marketing', 'tenant', 'admin'], members: 2 });
const [owner, other] = members;

const BASE = '/notification/api/in-apps';
const errorFields = (body: any) => [...new Set<string>((body.data.errors ?? []).map((error: { field: string }) => error.field))].sort();
const post = (path: string, body: Record<string, unknown>, token = marketing.token) => platform.api('POST', `${BASE}/${path}`, { token, body });

interface Case {
  path: string;
  body: Record<string, unknown>;
  type: string;
  pointSubtype?: string;
  tierSubtype?: string;
  title: { en: string; th: string; cn: string };
  content: { en: string; th: string; cn: string };
  metadata?: Record<string, unknown>;
}

/** Each convenience endpoint with a body of its kind's fields and the texts it must generate. */
const CASES: Case[] = [
  {
    path: 'points/received',
    body: { points: 1500, source: 'Central World', transactionId: 'TX-9', receiptImageUrl: 'https://cdn.example.com/r.png' },
    type: 'points',
    pointSubtype: 'point_received',
    title: { en: 'You received 1,500 points', th: 'คุณได้รับ 1,500 คะแนน', cn: '您获得了 1,500 积分' },
    content: {
      en: '1,500 points have been added to your account from Central World. Transaction: TX-9.',
      th: 'เพิ่ม 1,500 คะแนนเข้าบัญชีของคุณแล้ว จาก Central World หมายเลขรายการ: TX-9',
      cn: '1,500 积分已存入您的账户，来源：Central World。交易编号：TX-9。',
    },
  },
  {
    path: 'points/receipt-error',
    body: { reason_en: 'The image is blurry', reason_th: 'ภาพไม่ชัด', canRetry: true, errorCode: 'E42' },
    type: 'points',
    pointSubtype: 'receipt_error',
    title: { en: 'We could not process your receipt', th: 'ไม่สามารถดำเนินการใบเสร็จของคุณได้', cn: '您的收据无法处理' },
    content: {
      en: 'Your receipt could not be processed: The image is blurry. Please upload it again. (Error E42)',
      th: 'ไม่สามารถดำเนินการใบเสร็จของคุณได้: ภาพไม่ชัด กรุณาอัปโหลดใหม่อีกครั้ง (รหัสข้อผิดพลาด E42)',
      cn: '您的收据无法处理：The image is blurry。请重新上传。（错误代码 E42）',
    },
  },
  {
    path: 'points/receipt-processing',
    body: { transactionId: 'TX-10', estimatedProcessingTime: '24 hours' },
    type: 'points',
    pointSubtype: 'receipt_processing',
    title: { en: 'Your receipt is being processed', th: 'กำลังดำเนินการใบเสร็จของคุณ', cn: '您的收据正在处理中' },
    content: {
      en: 'We received your receipt and are checking it. Estimated time: 24 hours.',
      th: 'เราได้รับใบเสร็จของคุณแล้วและกำลังตรวจสอบ เวลาโดยประมาณ: 24 hours',
      cn: '我们已收到您的收据，正在审核中。预计处理时间：24 hours。',
    },
    metadata: { transactionId: 'TX-10', estimatedProcessingTime: '24 hours', status: 'processing' },
  },
  {
    path: 'points/nearly-expire',
    body: { points: 200, expiryDate: '2026-12-31T00:00:00Z', daysRemaining: 7 },
    type: 'points',
    pointSubtype: 'point_nearly_expire',
    title: { en: '200 points expire soon', th: '200 คะแนนใกล้หมดอายุ', cn: '200 积分即将过期' },
    content: {
      en: '200 points will expire on 2026-12-31 (in 7 days). Use them before they expire.',
      th: '200 คะแนน จะหมดอายุในวันที่ 2026-12-31 (อีก 7 วัน) กรุณาใช้คะแนนก่อนหมดอายุ',
      cn: '200 积分将于 2026-12-31 过期（剩余 7 天）。请在过期前使用。',
    },
  },
  {
    path: 'points/expired',
    body: { points: 50, expiryDate: '2026-11-01', source: 'Welcome bonus' },
    type: 'points',
    pointSubtype: 'point_expired',
    title: { en: '50 points have expired', th: '50 คะแนนหมดอายุแล้ว', cn: '50 积分已过期' },
    content: {
      en: '50 points from Welcome bonus expired on 2026-11-01.',
      th: '50 คะแนนจาก Welcome bonus หมดอายุแล้วเมื่อวันที่ 2026-11-01',
      cn: '来自Welcome bonus的50 积分已于 2026-11-01 过期。',
    },
  },
  {
    path: 'tier/upgraded-enhanced',
    body: { newTier_en: 'Gold', newTier_th: 'โกลด์', newTier_cn: '黄金', previousTier_en: 'Silver', benefits_en: ['Free parking', 'Birthday gift'], validUntil: '2027-12-31' },
    type: 'tier',
    tierSubtype: 'tier_upgraded',
    title: { en: 'Congratulations! You are now Gold', th: 'ยินดีด้วย! คุณเป็นสมาชิกระดับ โกลด์ แล้ว', cn: '恭喜！您已升级为 黄金' },
    content: {
      en: 'You moved up from Silver to Gold. Your benefits: Free parking, Birthday gift. Valid until 2027-12-31.',
      th: 'คุณได้เลื่อนระดับจาก Silver เป็น โกลด์ สิทธิประโยชน์ของคุณ: Free parking, Birthday gift ใช้ได้ถึงวันที่ 2027-12-31',
      cn: '您已从 Silver 升级为 黄金。您的专属权益：Free parking, Birthday gift。有效期至 2027-12-31。',
    },
  },
  {
    path: 'tier/adjusted',
    body: { newTier_en: 'Silver', previousTier_en: 'Gold', reason_en: 'Yearly review', requirements_en: ['Spend 10,000 THB'] },
    type: 'tier',
    tierSubtype: 'tier_adjusted',
    title: { en: 'Your tier is now Silver', th: 'ระดับสมาชิกของคุณเปลี่ยนเป็น Silver', cn: '您的会员等级已调整为 Silver' },
    content: {
      en: 'Your tier changed from Gold to Silver. Reason: Yearly review. To move up: Spend 10,000 THB.',
      th: 'ระดับสมาชิกของคุณเปลี่ยนจาก Gold เป็น Silver เหตุผล: Yearly review เงื่อนไขการเลื่อนระดับ: Spend 10,000 THB',
      cn: '您的会员等级已从 Gold 调整为 Silver。原因：Yearly review。升级条件：Spend 10,000 THB。',
    },
  },
  {
    path: 'tier/renewal-reminder',
    body: { expiryDate: '2027-01-15', daysRemaining: 30, currentTier_en: 'Gold', currentTier_cn: '黄金' },
    type: 'tier',
    tierSubtype: 'tier_renewal_reminder',
    title: { en: 'Your Gold tier expires in 30 days', th: 'ระดับสมาชิก Gold ของคุณจะหมดอายุในอีก 30 วัน', cn: '您的 黄金 会员等级将在 30 天后到期' },
    content: {
      en: 'Your Gold tier expires on 2027-01-15.',
      th: 'ระดับสมาชิก Gold ของคุณจะหมดอายุในวันที่ 2027-01-15',
      cn: '您的 黄金 会员等级将于 2027-01-15 到期。',
    },
  },
  {
    path: 'badge/unlocked',
    body: { badgeId: 'b-1', badgeNames: { en: 'Explorer', th: 'นักสำรวจ', cn: '探索者' }, unlockDescription: { en: 'Visited 5 shops', th: 'เยี่ยมชม 5 ร้าน', cn: '光顾了 5 家店' }, rarity: 'rare' },
    type: 'badge',
    title: { en: 'Badge unlocked: Explorer', th: 'ปลดล็อกเหรียญตรา: นักสำรวจ', cn: '徽章已解锁：探索者' },
    content: {
      en: 'You unlocked the Explorer badge! Visited 5 shops',
      th: 'คุณปลดล็อกเหรียญตรา นักสำรวจ แล้ว! เยี่ยมชม 5 ร้าน',
      cn: '您已解锁 探索者 徽章！光顾了 5 家店',
    },
  },
  {
    path: 'badge/progress',
    body: { badgeName: 'Big Spender', progressPercentage: 60, currentValue: 3, goalValue: 5, daysLeft: null },
    type: 'badge',
    title: { en: '60% of the way to Big Spender', th: 'ความคืบหน้า 60% สู่เหรียญตรา Big Spender', cn: 'Big Spender 徽章进度 60%' },
    content: {
      en: 'You are 60% of the way to the Big Spender badge (3 of 5).',
      th: 'คุณทำได้ 60% ของเหรียญตรา Big Spender แล้ว (3 จาก 5)',
      cn: '您已完成 Big Spender 徽章的 60%（3/5）。',
    },
    metadata: { badgeName: 'Big Spender', progressPercentage: 60, currentValue: 3, goalValue: 5 },
  },
  {
    path: 'promotion/create',
    body: { promotionId: 'P-1', discount: 20, rewardName_en: 'Coffee', rewardName_th: 'กาแฟ', rewardName_cn: '咖啡', validUntil: '2026-12-25' },
    type: 'promotion',
    title: { en: 'New promotion: Coffee', th: 'โปรโมชันใหม่: กาแฟ', cn: '新优惠：咖啡' },
    content: {
      en: 'Save 20% on Coffee until 2026-12-25.',
      th: 'รับส่วนลด 20% สำหรับ กาแฟ ถึงวันที่ 2026-12-25',
      cn: '咖啡 享 20% 折扣，有效期至 2026-12-25。',
    },
  },
  {
    path: 'news/create',
    body: { newsId: 'N-1', category: 'Events', priority: 'high', tags: ['music', 'food'] },
    type: 'news',
    title: { en: 'Important: Events news', th: 'สำคัญ: ข่าวสาร Events', cn: '重要：Events新闻' },
    content: {
      en: 'There is new Events news for you. Open the app to read it. Topics: music, food.',
      th: 'มีข่าวสาร Events ใหม่สำหรับคุณ เปิดแอปเพื่ออ่านรายละเอียด หัวข้อ: music, food',
      cn: '您有新的Events新闻，请打开应用查看。主题：music, food。',
    },
  },
];

describe('POST /in-apps/<kind> convenience endpoints (notification:manage)', () => {
  it.each(CASES.map((item) => [item.path, item] as const))('%s answers 201 with the kind and its texts in en, th and cn', async (_path, item) => {
    const response = await post(item.path, { memberId: owner.id, ...item.body });
    expect(response.status).toBe(201);
    expect(response.body.data.message).toBe('Notification created');
    expect(response.body.data.data).toEqual({
      id: expect.any(String),
      memberId: owner.id,
      title_en: item.title.en,
      title_th: item.title.th,
      title_cn: item.title.cn,
      content_en: item.content.en,
      content_th: item.content.th,
      content_cn: item.content.cn,
      format: 'raw',
      type: item.type,
      pointSubtype: item.pointSubtype ?? null,
      tierSubtype: item.tierSubtype ?? null,
      metadata: item.metadata ?? item.body,
      readAt: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const stored = await platform.sql.query('select title_th, content_cn, type from notification.in_app_notification where id = $1', [response.body.data.data.id]);
    expect(stored.rows[0]).toEqual({ title_th: item.title.th, content_cn: item.content.cn, type: item.type });
    const mine = await platform.api('GET', `${BASE}/${response.body.data.data.id}?locale=th`, { token: owner.token });
    expect(mine.body.data.data).toMatchObject({ title_th: item.title.th, title_en: null });
  });

  it('leaves out the optional parts whose fields are not given', async () => {
    const response = await post('points/received', { memberId: owner.id, points: 10 });
    expect(response.status).toBe(201);
    expect(response.body.data.data).toMatchObject({
      title_en: 'You received 10 points',
      content_en: '10 points have been added to your account.',
      content_th: 'เพิ่ม 10 คะแนนเข้าบัญชีของคุณแล้ว',
      content_cn: '10 积分已存入您的账户。',
      metadata: { points: 10 },
    });
  });

  it('keeps a placeholder value as text: braces in a field are not read as a template', async () => {
    const response = await post('points/received', { memberId: owner.id, points: 1, source: '{{points}}{{#points}}x{{/points}}' });
    expect(response.status).toBe(201);
    expect(response.body.data.data.content_en).toBe('1 points have been added to your account from {{points}}{{#points}}x{{/points}}.');
  });

  it('bounds a generated title to 255 characters', async () => {
    const response = await post('tier/adjusted', { memberId: owner.id, newTier_en: 'G'.repeat(1000) });
    expect(response.status).toBe(201);
    expect(response.body.data.data.title_en).toHaveLength(255);
    expect(response.body.data.data.title_en.endsWith('…')).toBe(true);
  });

  it('is 400 with a field error for each rule broken, and writes nothing', async () => {
    const cases: Array<[string, Record<string, unknown>, string[]]> = [
      ['points/received', { points: 5 }, ['memberId']],
      ['points/received', { memberId: 'nope', points: 5 }, ['memberId']],
      ['points/received', { memberId: owner.id }, ['points']],
      ['points/received', { memberId: owner.id, points: 0 }, ['points']],
      ['points/received', { memberId: owner.id, points: -3 }, ['points']],
      ['points/received', { memberId: owner.id, points: '5', receiptImageUrl: 'javascript:alert(1)' }, ['points', 'receiptImageUrl']],
      ['points/received', { memberId: owner.id, points: 5, title_en: 'mine' }, ['title_en']],
      ['points/receipt-error', { memberId: owner.id, canRetry: 'yes' }, ['canRetry']],
      ['points/receipt-processing', { memberId: owner.id, status: 'done' }, ['status']],
      ['points/nearly-expire', { memberId: owner.id, points: 5 }, ['expiryDate']],
      ['points/nearly-expire', { memberId: owner.id, points: 5, expiryDate: 'next week' }, ['expiryDate']],
      ['points/expired', { memberId: owner.id, source: 'x' }, ['points']],
      ['tier/upgraded-enhanced', { memberId: owner.id, newTier_th: 'โกลด์' }, ['newTier_en']],
      ['tier/upgraded-enhanced', { memberId: owner.id, newTier_en: 'Gold', benefits_en: 'all', tierLogoUrl: 'logo.png' }, ['benefits_en', 'tierLogoUrl']],
      ['tier/adjusted', { memberId: owner.id }, ['newTier_en']],
      ['tier/renewal-reminder', { memberId: owner.id, currentTier_en: 'Gold' }, ['daysRemaining', 'expiryDate']],
      ['badge/unlocked', { memberId: owner.id, rarity: 'mythic' }, ['badgeName', 'rarity']],
      ['badge/progress', { memberId: owner.id, badgeName: 'B', progressPercentage: 101 }, ['progressPercentage']],
      ['badge/progress', { memberId: owner.id, badgeName: 'B' }, ['progressPercentage']],
      ['promotion/create', { memberId: owner.id, discount: 'ten', rewardName_en: 'Coffee' }, ['discount']],
      ['promotion/create', { memberId: owner.id, discount: 10 }, ['rewardName_en']],
      ['news/create', { memberId: owner.id, category: 'Events', priority: 'urgent', tags: [1] }, ['priority', 'tags']],
      ['news/create', { memberId: owner.id }, ['category']],
    ];
    const before = await platform.sql.query('select count(*)::int as n from notification.in_app_notification where member_id = $1', [owner.id]);
    for (const [path, body, fields] of cases) {
      const response = await post(path, body);
      expect({ path, body, status: response.status, fields: errorFields(response.body) }).toEqual({ path, body, status: 400, fields });
    }
    const after = await platform.sql.query('select count(*)::int as n from notification.in_app_notification where member_id = $1', [owner.id]);
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });

  it.each(CASES.map((item) => [item.path, item] as const))('%s is 401 without a token and 403 for tenant staff and members', async (_path, item) => {
    const body = { memberId: other.id, ...item.body };
    expect((await platform.api('POST', `${BASE}/${item.path}`, { body })).status).toBe(401);
    expect((await post(item.path, body, tenant.token)).status).toBe(403);
    expect((await post(item.path, body, other.token)).status).toBe(403);
    expect((await post(item.path, body, admin.token)).status).toBe(201);
  });

  it('works through GraphQL with the same rules', async () => {
    const mutation = `mutation ($template: InAppNotificationTemplate!, $input: TemplatedInAppNotificationInput!) {
      createTemplatedInAppNotification(template: $template, input: $input) { memberId type pointSubtype title_cn } }`;
    const made = await platform.graphql(mutation, { template: 'points_expired', input: { memberId: owner.id, fields: { points: 7 } } }, marketing.token);
    expect(made.body.errors).toBeUndefined();
    expect(made.body.data.createTemplatedInAppNotification).toEqual({ memberId: owner.id, type: 'points', pointSubtype: 'point_expired', title_cn: '7 积分已过期' });
    const refused = await platform.graphql(mutation, { template: 'points_expired', input: { memberId: owner.id, fields: { points: 'many' } } }, marketing.token);
    expect(refused.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION', errors: [{ field: 'points', message: expect.any(String) }] });
  });
});
