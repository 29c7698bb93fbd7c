import { MEMBER_EMAIL_DOMAIN } from './program';
import { Random } from './random';

const FIRST_NAMES: ReadonlyArray<{ name: string; gender: 'male' | 'female'; language: 'th' | 'en' }> = [
  { name: 'Somchai', gender: 'male', language: 'th' },
  { name: 'Suda', gender: 'female', language: 'th' },
  { name: 'Niran', gender: 'male', language: 'th' },
  { name: 'Kanya', gender: 'female', language: 'th' },
  { name: 'Arthit', gender: 'male', language: 'th' },
  { name: 'Ploy', gender: 'female', language: 'th' },
  { name: 'Nattapong', gender: 'male', language: 'th' },
  { name: 'Siriporn', gender: 'female', language: 'th' },
  { name: 'Wichai', gender: 'male', language: 'th' },
  { name: 'Malee', gender: 'female', language: 'th' },
  { name: 'Thanawat', gender: 'male', language: 'th' },
  { name: 'Pimchanok', gender: 'female', language: 'th' },
  { name: 'Prasert', gender: 'male', language: 'th' },
  { name: 'Kittiya', gender: 'female', language: 'th' },
  { name: 'Surachai', gender: 'male', language: 'th' },
  { name: 'Waraporn', gender: 'female', language: 'th' },
  { name: 'Chaiya', gender: 'male', language: 'th' },
  { name: 'Anong', gender: 'female', language: 'th' },
  { name: 'Jirayu', gender: 'male', language: 'th' },
  { name: 'Rattana', gender: 'female', language: 'th' },
  { name: 'Liam', gender: 'male', language: 'en' },
  { name: 'Emma', gender: 'female', language: 'en' },
  { name: 'Hiro', gender: 'male', language: 'en' },
  { name: 'Mei', gender: 'female', language: 'en' },
  { name: 'Noah', gender: 'male', language: 'en' },
  { name: 'Aisha', gender: 'female', language: 'en' },
];

const LAST_NAMES = [
  'Saetang', 'Wongsa', 'Chaiyaporn', 'Srisuk', 'Thongdee', 'Kongkaew', 'Boonmee', 'Rattanakorn',
  'Jaidee', 'Sukhum', 'Phromma', 'Intarasuk', 'Charoenkul', 'Sombat', 'Pongsakorn', 'Wattana', 'Srisawat',
  'Kaewmanee', 'Suwannarat', 'Limthong', 'Panyadee', 'Ruangsri', 'Tanaka', 'Chen', 'Walker', 'Nguyen', 'Kim', 'Schmidt',
];

const CITIES = [
  { city: 'Bangkok', postalCode: '10110', weight: 6 },
  { city: 'Chiang Mai', postalCode: '50200', weight: 2 },
  { city: 'Phuket', postalCode: '83000', weight: 1 },
  { city: 'Khon Kaen', postalCode: '40000', weight: 1 },
];

const STREETS = ['Sukhumvit Road', 'Rama IV Road', 'Silom Road', 'Nimmanhaemin Road', 'Charoen Krung Road', 'Phahonyothin Road'];

/** How much a member buys: most now and then, some regularly, a few a lot. */
export type Spender = 'occasional' | 'regular' | 'vip';

export interface DemoPerson {
  /** 1, 2, ...: the member's place in the demo, which everything about it derives from. */
  index: number;
  /** The index written with four digits, in e-mails and external ids. */
  key: string;
  name: string;
  email: string;
  phone: string;
  dateOfBirth: string;
  gender: 'male' | 'female';
  language: 'th' | 'en';
  address: { street: string; city: string; postalCode: string };
  spender: Spender;
}

/** An item of `items` chosen in proportion to its weight. */
export function pickWeighted<T extends { weight: number }>(random: Random, items: readonly T[]): T {
  let point = random.next() * items.reduce((sum, item) => sum + item.weight, 0);
  for (const item of items) {
    point -= item.weight;
    if (point < 0) return item;
  }
  return items[items.length - 1];
}

const two = (value: number) => String(value).padStart(2, '0');

/** Member `index` of the demo, the same on every run. */
export function demoPerson(index: number): DemoPerson {
  const random = new Random(`member:${index}`);
  const first = random.pick(FIRST_NAMES);
  const last = random.pick(LAST_NAMES);
  const key = String(index).padStart(4, '0');
  const place = pickWeighted(random, CITIES);
  const roll = random.next();
  return {
    index,
    key,
    name: `${first.name} ${last}`,
    email: `${first.name}.${last}.${key}@${MEMBER_EMAIL_DOMAIN}`.toLowerCase(),
    phone: `+668${String(10_000_000 + index).slice(1)}`,
    dateOfBirth: `${random.int(1965, 2004)}-${two(random.int(1, 12))}-${two(random.int(1, 28))}`,
    gender: first.gender,
    language: first.language,
    address: { street: `${random.int(1, 999)} ${random.pick(STREETS)}`, city: place.city, postalCode: place.postalCode },
    spender: roll < 0.1 ? 'vip' : roll < 0.4 ? 'regular' : 'occasional',
  };
}
