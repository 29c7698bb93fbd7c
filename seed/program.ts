/**
 * The demo program, a retail brand's loyalty club: its shops, tiers, badges, rewards, venues, campaign
 * and messages. Plain data; each item's name is its natural key (a second run finds it by name).
 */

export const PROGRAM_NAME = 'Siam Style Club';

/** Members' e-mail addresses end with this: the seeder finds its members by it. */
export const MEMBER_EMAIL_DOMAIN = 'demo.example.com';

export interface Store {
  id: string;
  /** How often members shop there, relative to the others. */
  weight: number;
}

export const STORES: readonly Store[] = [
  { id: 'BKK-SIAM', weight: 4 },
  { id: 'BKK-THONGLOR', weight: 3 },
  { id: 'CNX-NIMMAN', weight: 2 },
  { id: 'ONLINE', weight: 3 },
];

export const CATEGORIES = ['apparel', 'footwear', 'accessories', 'beauty', 'home'] as const;

/** The flagship earns double points; every other shop the platform's default rule (1 point per unit). */
export const SHOP_RULE = {
  name_en: 'Siam flagship: double points',
  description_en: '2 points per baht spent at the Siam Square flagship',
  shopId: 'BKK-SIAM',
  conversionRate: 2,
};

export interface DemoTier {
  name_en: string;
  name_th: string;
  description_en: string;
  level: number;
  /** Lifetime purchases (baht) that reach the tier: members move up on their own as they buy. */
  purchaseAmountHit: number;
  background: string;
}

export const TIERS: readonly DemoTier[] = [
  { name_en: 'Bronze', name_th: 'บรอนซ์', description_en: 'Where every member starts', level: 1, purchaseAmountHit: 0, background: '#cd7f32' },
  { name_en: 'Silver', name_th: 'ซิลเวอร์', description_en: 'From 5,000 baht of purchases', level: 2, purchaseAmountHit: 5000, background: '#c0c0c0' },
  { name_en: 'Gold', name_th: 'โกลด์', description_en: 'From 20,000 baht of purchases', level: 3, purchaseAmountHit: 20000, background: '#d4af37' },
  { name_en: 'Platinum', name_th: 'แพลทินัม', description_en: 'From 60,000 baht of purchases', level: 4, purchaseAmountHit: 60000, background: '#e5e4e2' },
];

const benefit = (name_en: string, description_en: string, type: string) => ({ name_en, description_en, type });

/** Each tier's benefits, by tier name. */
export const TIER_BENEFITS: Record<string, Array<ReturnType<typeof benefit>>> = {
  Bronze: [benefit('1 point per baht', 'Points on every purchase, in store and online', 'points'), benefit('Birthday treat', 'A free iced coffee in your birthday month', 'gift')],
  Silver: [benefit('Free delivery', 'Free delivery on every online order', 'service'), benefit('5% member price', '5% off full-price items', 'discount')],
  Gold: [
    benefit('10% member price', '10% off full-price items', 'discount'),
    benefit('Free alterations', 'Hems and fittings at no charge', 'service'),
    benefit('Early sale access', 'Shop every sale a day before everyone else', 'access'),
  ],
  Platinum: [
    benefit('15% member price', '15% off full-price items', 'discount'),
    benefit('Personal stylist', 'A stylist by appointment at the Nimman studio', 'service'),
    benefit('Lounge access', 'The Siam Lounge, with a guest', 'access'),
  ],
};

export const BADGES = [
  { name_en: 'First purchase', description_en: 'Your first purchase with the club', rule: { type: 'firstTime' } },
  { name_en: 'Regular', description_en: 'Five purchases', rule: { type: 'purchaseCount', purchaseCount: 5 } },
  { name_en: 'Big spender', description_en: '20,000 baht of purchases', rule: { type: 'totalPurchaseAmount', purchaseAmount: 20000 } },
  { name_en: 'Siam fan', description_en: '5,000 baht at the Siam Square flagship', rule: { type: 'shopPurchaseAmount', purchaseAmount: 5000, shopIdsIncluded: ['BKK-SIAM'] } },
  { name_en: 'Beauty lover', description_en: 'Three beauty purchases', rule: { type: 'categoryPurchase', purchaseCount: 3, categoryIdsIncluded: ['beauty'] } },
] as const;

export interface DemoReward {
  /** Names both the reward and its catalog entry. */
  name_en: string;
  description_en: string;
  type: 'VOUCHER' | 'PRODUCT' | 'OTHER';
  discountType?: 'AMOUNT' | 'PERCENTAGE';
  benefitValue?: number;
  minimumSpend?: number;
  /** null: unlimited stock. */
  stock: number | null;
  /** Days a code may be used after it was issued. */
  useWithinDays: number;
  pointUsage: number;
  /** Only members of these tiers may redeem it: the seeder redeems none of those (tiers move asynchronously). */
  tiersOnly?: string[];
}

export const REWARDS: readonly DemoReward[] = [
  { name_en: 'Free iced coffee', description_en: 'Any iced coffee at the Siam Square café', type: 'PRODUCT', stock: 5000, useWithinDays: 30, pointUsage: 300 },
  { name_en: '100 baht voucher', description_en: '100 baht off a purchase of 500 baht or more', type: 'VOUCHER', discountType: 'AMOUNT', benefitValue: 100, minimumSpend: 500, stock: null, useWithinDays: 60, pointUsage: 1000 },
  { name_en: 'Canvas tote bag', description_en: 'The club tote, in natural canvas', type: 'PRODUCT', stock: 3000, useWithinDays: 90, pointUsage: 1500 },
  { name_en: '10% off voucher', description_en: '10% off a purchase of 2,000 baht or more', type: 'VOUCHER', discountType: 'PERCENTAGE', benefitValue: 10, minimumSpend: 2000, stock: null, useWithinDays: 60, pointUsage: 2500 },
  { name_en: 'Lounge day pass', description_en: 'A day at the Siam Lounge for two', type: 'OTHER', stock: 200, useWithinDays: 30, pointUsage: 5000, tiersOnly: ['Platinum'] },
];

export const SEGMENTS = {
  gold: { name_en: 'Gold and Platinum members', description_en: 'Members in the two highest tiers', tiers: ['Gold', 'Platinum'] },
  newsletter: { name_en: 'Newsletter subscribers', description_en: 'Members who asked for the monthly newsletter' },
};

export const CAMPAIGN = {
  name: 'Rainy Season Challenge',
  description: 'Shop once during the rainy season and get 200 bonus points',
  type: 'challenge',
  /** Days before the first run that it started, and after it that it ends. */
  startedDaysAgo: 14,
  endsInDays: 45,
  reward: { type: 'points', value: 200, unit: 'points' },
  rules: { perCustomerLimit: 1 },
  content: { terms: 'One reward per member. Purchases in every store and online count.' },
};

export interface DemoVenue {
  name: string;
  type: 'restaurant' | 'service';
  address: string;
  phone: string;
  capacity: number;
  openingTime: string;
  closingTime: string;
  slotMinutes: number;
  /** What a booking there is. */
  bookingType: 'table' | 'slot';
  maxGuests: number;
}

export const VENUES: readonly DemoVenue[] = [
  { name: 'Siam Lounge', type: 'restaurant', address: '991 Rama I Road, Pathum Wan, Bangkok 10330', phone: '+66 2 000 1000', capacity: 40, openingTime: '11:00', closingTime: '22:00', slotMinutes: 60, bookingType: 'table', maxGuests: 4 },
  { name: 'Nimman Styling Studio', type: 'service', address: '12 Nimmanhaemin Road, Chiang Mai 50200', phone: '+66 53 000 200', capacity: 3, openingTime: '10:00', closingTime: '19:00', slotMinutes: 30, bookingType: 'slot', maxGuests: 1 },
];

export const WELCOME_TEMPLATE = {
  name: 'demo-welcome',
  title: 'Welcome to {{program}}',
  body: 'You earn points on every purchase at {{program}}, in store and online. Show your member QR code at the till.',
  channel: 'in_app',
  variables: ['program'],
};

/** Sent to the biggest spenders by id. */
export const VIP_NOTICE = {
  title: 'Your VIP preview is open',
  body: 'The new season is in store a week early for you: come by the Siam Square flagship before Saturday.',
  channel: 'in_app',
  category: 'promotions',
};
