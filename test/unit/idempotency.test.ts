import { requestHash } from '../../core/idempotency';

describe('the hash of a request body (Idempotency-Key)', () => {
  const body = { memberId: 'm1', amount: 10.5, sourceBy: 'Purchase', detail: { shopId: 's1', tags: ['a', 'b'] } };

  it('is a SHA-256 in hex', () => {
    expect(requestHash(body)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is the same for the same fields in another key order, at every depth', () => {
    const reordered = { detail: { tags: ['a', 'b'], shopId: 's1' }, sourceBy: 'Purchase', amount: 10.5, memberId: 'm1' };
    expect(requestHash(reordered)).toBe(requestHash(body));
  });

  it('ignores fields that are undefined, as JSON does', () => {
    expect(requestHash({ ...body, note: undefined })).toBe(requestHash(body));
  });

  it('differs when a value, a type, a field or the order of a list differs', () => {
    const hash = requestHash(body);
    expect(requestHash({ ...body, amount: 10.51 })).not.toBe(hash);
    expect(requestHash({ ...body, amount: '10.5' })).not.toBe(hash);
    expect(requestHash({ ...body, note: null })).not.toBe(hash);
    expect(requestHash({ ...body, detail: { shopId: 's1', tags: ['b', 'a'] } })).not.toBe(hash);
    expect(requestHash({ ...body, detail: { shopId: 's2', tags: ['a', 'b'] } })).not.toBe(hash);
  });
});
