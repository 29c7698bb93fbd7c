import { AppError } from '../../../core/errors';

/** What an extractor read from a receipt: its amount (a decimal string, > 0) and where it was spent. */
export interface ExtractedReceipt {
  money: string;
  shopId?: string | null;
  categoryId?: string | null;
}

/**
 * Reads a receipt for automatic verification. `null` means "cannot tell": the verification is left
 * for manual review. Implementations throw AppError('UNAVAILABLE') when the provider fails.
 */
export interface ReceiptExtractor {
  extract(receiptId: string, imageUrl: string): Promise<ExtractedReceipt | null>;
}

/** The default: no extraction provider, so every receipt goes to manual review. */
export class ManualReviewOnlyExtractor implements ReceiptExtractor {
  async extract(): Promise<ExtractedReceipt | null> {
    return null;
  }
}

/** Up to 999,999,999,999.99 with at most 2 decimals, as numeric(20, 2) and the ledger accept. */
const MONEY = /^\d{1,12}(\.\d{1,2})?$/;
const MAX_ID_LENGTH = 256;

/**
 * An extraction service over HTTP (RECEIPT_EXTRACTOR_URL): POSTs `{receiptId, imageUrl}` as JSON and
 * expects 200 with `{money, shopId?, categoryId?}`; 404 or a `null` body means "cannot tell".
 * `money` may be a JSON number or a decimal string; it is kept as the decimal string it reads as.
 */
export class HttpReceiptExtractor implements ReceiptExtractor {
  constructor(
    private readonly url: string,
    private readonly timeoutMs = 10_000,
  ) {}

  async extract(receiptId: string, imageUrl: string): Promise<ExtractedReceipt | null> {
    let status: number;
    let body: unknown;
    try {
      const response = await fetch(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ receiptId, imageUrl }),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      status = response.status;
      const text = await response.text();
      body = status === 200 && text ? JSON.parse(text) : null;
    } catch {
      throw new AppError('UNAVAILABLE', 'The receipt extractor did not answer');
    }
    if (status === 404 || (status === 200 && body === null)) return null;
    if (status !== 200) throw new AppError('UNAVAILABLE', `The receipt extractor failed (HTTP ${status})`);
    const result = parseExtracted(body);
    if (!result) throw new AppError('UNAVAILABLE', 'The receipt extractor answered an invalid result');
    return result;
  }
}

function parseExtracted(body: unknown): ExtractedReceipt | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const { money, shopId, categoryId } = body as Record<string, unknown>;
  const text = typeof money === 'number' ? String(money) : money;
  if (typeof text !== 'string' || !MONEY.test(text) || !/[1-9]/.test(text)) return null;
  const optionalId = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.length > 0 && value.length <= MAX_ID_LENGTH);
  if (!optionalId(shopId) || !optionalId(categoryId)) return null;
  return { money: text, shopId: (shopId as string | undefined) ?? null, categoryId: (categoryId as string | undefined) ?? null };
}

/** The configured extractor: over HTTP when a URL is set, else manual review only. */
export function createReceiptExtractor(url?: string): ReceiptExtractor {
  return url ? new HttpReceiptExtractor(url) : new ManualReviewOnlyExtractor();
}
