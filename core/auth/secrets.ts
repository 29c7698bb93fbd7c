import { createHash, randomBytes, randomInt, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number, options: object) => Promise<Buffer>;
/** scrypt at the OWASP Password Storage Cheat Sheet recommendation: N=2^17, r=8, p=1 (128 MiB per hash). */
export const DEFAULT_SCRYPT_COST = 2 ** 17;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
const KEY_LENGTH = 32;
/** Bounds on the parameters read back from a stored hash, so that a damaged row cannot ask for gigabytes. */
const MAX_STORED = { N: 2 ** 20, r: 32, p: 16 };

interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

/** scrypt needs 128·N·r bytes; Node refuses past `maxmem`, whose default (32 MiB) is below N=2^17. */
const scryptWith = (password: string, salt: Buffer, keyLength: number, { N, r, p }: ScryptParams) =>
  scryptAsync(password, salt, keyLength, { N, r, p, maxmem: 2 * 128 * N * r });

/**
 * Password hashes `scrypt$N$r$p$salt$hash`: the parameters travel with the hash, so that a hash made
 * with older (weaker) parameters still verifies and can be replaced on the next login.
 */
export class PasswordHasher {
  private readonly params: ScryptParams;

  /** `cost` is scrypt's N (a power of two); the default is the OWASP recommendation. */
  constructor(cost = DEFAULT_SCRYPT_COST) {
    this.params = { N: cost, r: BLOCK_SIZE, p: PARALLELISM };
  }

  async hash(password: string): Promise<string> {
    const salt = randomBytes(16);
    const hash = await scryptWith(password, salt, KEY_LENGTH, this.params);
    const { N, r, p } = this.params;
    return ['scrypt', N, r, p, salt.toString('base64url'), hash.toString('base64url')].join('$');
  }

  /**
   * Whether the password matches the stored hash. Without a stored hash (unknown account, no password
   * set) it still spends the time of one hash at the current cost, so timing does not tell them apart.
   */
  async verify(password: string, stored: string | null | undefined): Promise<boolean> {
    const parsed = parse(stored);
    if (!parsed) {
      await scryptWith(password, randomBytes(16), KEY_LENGTH, this.params);
      return false;
    }
    const actual = await scryptWith(password, parsed.salt, parsed.hash.length, parsed.params);
    return timingSafeEqual(actual, parsed.hash);
  }

  /** Whether a hash that verified was made with weaker parameters than the current ones. */
  needsRehash(stored: string): boolean {
    const parsed = parse(stored);
    if (!parsed) return true;
    const { N, r, p } = parsed.params;
    return N < this.params.N || r !== this.params.r || p !== this.params.p || parsed.hash.length !== KEY_LENGTH;
  }
}

function parse(stored: string | null | undefined): { params: ScryptParams; salt: Buffer; hash: Buffer } | undefined {
  const parts = (stored ?? '').split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return undefined;
  const [N, r, p] = parts.slice(1, 4).map(Number);
  const bounded = (value: number, max: number) => Number.isInteger(value) && value >= 1 && value <= max;
  if (!bounded(N, MAX_STORED.N) || (N & (N - 1)) !== 0 || N < 2 || !bounded(r, MAX_STORED.r) || !bounded(p, MAX_STORED.p)) return undefined;
  const hash = Buffer.from(parts[5], 'base64url');
  if (hash.length === 0) return undefined;
  return { params: { N, r, p }, salt: Buffer.from(parts[4], 'base64url'), hash };
}

/** Tokens, API keys and reset codes are stored only as their SHA-256. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function numericCode(digits = 6): string {
  return String(randomInt(0, 10 ** digits)).padStart(digits, '0');
}
