import { validate } from 'class-validator';
import { AppError } from '../../core/errors';
import { HasDecimals, HasTwoDecimals, IsHttpUrl, MAX_EXACT_AMOUNT, nestedDeeperThan, unstorableTextErrors, validateArgument } from '../../core/validation';

class Amounts {
  @HasTwoDecimals() amount: unknown;
  @HasDecimals(0) whole: unknown = 1;
}
class Link {
  @IsHttpUrl() url: unknown;
}

const amountAccepted = async (amount: unknown) => (await validate(Object.assign(new Amounts(), { amount }))).length === 0;
const wholeAccepted = async (whole: unknown) => (await validate(Object.assign(new Amounts(), { amount: 1, whole }))).length === 0;
const urlAccepted = async (url: unknown) => (await validate(Object.assign(new Link(), { url }))).length === 0;

describe('HasDecimals: an amount the database stores exactly', () => {
  it('accepts numbers with at most the given decimals, up to the largest exact amount either way', async () => {
    for (const amount of [0, 1, 0.29, 10.5, 0.01, -3.75, MAX_EXACT_AMOUNT, -MAX_EXACT_AMOUNT]) expect([amount, await amountAccepted(amount)]).toEqual([amount, true]);
    expect(await wholeAccepted(42)).toBe(true);
  });

  it('refuses more decimals, also when written without a dot (1e-7), and magnitudes past the limit (1e21)', async () => {
    for (const amount of [1e-7, 0.001, 1.234, 1e21, MAX_EXACT_AMOUNT + 0.01, -1e21]) expect([amount, await amountAccepted(amount)]).toEqual([amount, false]);
    expect(await wholeAccepted(0.5)).toBe(false);
  });

  it('refuses what is not a finite number', async () => {
    for (const amount of ['1', Number.NaN, Number.POSITIVE_INFINITY, null, undefined, {}]) expect([amount, await amountAccepted(amount)]).toEqual([amount, false]);
  });

  it('says which field and how many decimals', async () => {
    const [error] = await validate(Object.assign(new Amounts(), { amount: 0.001 }));
    expect(error.constraints).toEqual({ hasDecimals: 'amount must be a number with at most 2 decimal places' });
  });
});

describe('IsHttpUrl: a link a client may render or fetch', () => {
  it('accepts absolute http and https URLs with any host, port, path and query', async () => {
    for (const url of ['http://example.com', 'https://cdn.example.com:8443/a/b.png?size=2#top', 'HTTPS://EXAMPLE.COM/x', 'http://127.0.0.1:3000/files/x']) {
      expect([url, await urlAccepted(url)]).toEqual([url, true]);
    }
  });

  it('refuses other schemes, relative links, a missing host and whitespace', async () => {
    for (const url of ['javascript:alert(1)', 'data:image/png;base64,AAAA', 'ftp://example.com/f', '//example.com/x', '/files/x', 'http://', 'http:///x', 'http://exa mple.com', 'https://example.com/a b', 42]) {
      expect([url, await urlAccepted(url)]).toEqual([url, false]);
    }
  });
});

describe('validateArgument: the failures of an input class as one VALIDATION error', () => {
  it('lists every failing field', async () => {
    const error = await validateArgument(Object.assign(new Amounts(), { amount: 1e-7, whole: 1.5 })).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'VALIDATION', fieldErrors: [{ field: 'amount' }, { field: 'whole' }] });
  });

  it('passes valid inputs and plain objects through', async () => {
    await expect(validateArgument(Object.assign(new Amounts(), { amount: 2.5 }))).resolves.toBeUndefined();
    await expect(validateArgument({ amount: 'not checked' })).resolves.toBeUndefined();
  });

  it('first refuses text PostgreSQL cannot store in any argument of the field, named as the client named it, once per field', async () => {
    const resolverData = { args: { input: { name: 'a\u0000', amount: 1e-7 }, search: '\ud800' } };
    const error = await validateArgument(Object.assign(new Amounts(), { amount: 1e-7 }), undefined, resolverData).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'VALIDATION', fieldErrors: [{ field: 'name' }, { field: 'search' }] });
    // The field's other parameters are not checked again.
    await expect(validateArgument('\ud800', undefined, resolverData)).resolves.toBeUndefined();
  });
});

describe('unstorableTextErrors: what PostgreSQL refuses in text and jsonb', () => {
  it('names each string holding a NUL or an unpaired surrogate by its path, and each object holding such a key', () => {
    const value = { ok: 'héllo 😀', nul: 'a\u0000b', lows: ['\udc00x', 'fine', '\ud800'], nested: { ['k\u0000']: { deep: 'x\ud83d' } } };
    expect(unstorableTextErrors(value, 'input')).toEqual([
      { field: 'input.nul', message: 'input.nul must not contain the NUL character (U+0000)' },
      { field: 'input.lows.0', message: 'input.lows.0 must be well-formed Unicode (it holds an unpaired surrogate, such as \\ud800)' },
      { field: 'input.lows.2', message: 'input.lows.2 must be well-formed Unicode (it holds an unpaired surrogate, such as \\ud800)' },
      { field: 'input.nested', message: 'input.nested has a key that must not contain the NUL character (U+0000)' },
      { field: 'input.nested.k\u0000.deep', message: 'input.nested.k\u0000.deep must be well-formed Unicode (it holds an unpaired surrogate, such as \\ud800)' },
    ]);
    expect(unstorableTextErrors('\u0000', '')).toEqual([{ field: '', message: 'value must not contain the NUL character (U+0000)' }]);
    expect(unstorableTextErrors({ pair: '\ud83d\ude00', n: 1, b: true, none: null, date: new Date() }, 'x')).toEqual([]);
  });
});

describe('nestedDeeperThan: how deep a client nests arrays and objects', () => {
  const nested = (depth: number): unknown => (depth === 0 ? 'leaf' : depth % 2 ? [nested(depth - 1)] : { a: nested(depth - 1) });
  it('counts objects and arrays, not their leaves, without recursion', () => {
    expect(nestedDeeperThan(nested(32))).toBe(false);
    expect(nestedDeeperThan(nested(33))).toBe(true);
    expect(nestedDeeperThan('text')).toBe(false);
    let deep: unknown = 1;
    for (let depth = 0; depth < 200_000; depth += 1) deep = [deep];
    expect(nestedDeeperThan(deep)).toBe(true);
  });
});
