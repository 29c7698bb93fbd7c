import { timeOrderedId } from '../../core/ids';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('timeOrderedId', () => {
  it('is a version 7 UUID carrying the millisecond it was made in', () => {
    const id = timeOrderedId(Date.UTC(2026, 10, 27, 12, 0, 0, 123));
    expect(id).toMatch(V7);
    expect(parseInt(id.replace('-', '').slice(0, 12), 16)).toBe(Date.UTC(2026, 10, 27, 12, 0, 0, 123));
  });

  it('orders ids of later milliseconds after earlier ones, as text and as PostgreSQL compares uuids', () => {
    const earlier = Array.from({ length: 50 }, (_, index) => timeOrderedId(1_800_000_000_000 + index));
    expect([...earlier].sort()).toEqual(earlier);
  });

  it('keeps random bits: ids of the same millisecond differ', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => timeOrderedId(1_800_000_000_000)));
    expect(ids.size).toBe(1000);
  });
});
