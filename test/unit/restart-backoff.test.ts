import { RestartBackoff } from '../../core/restart-backoff';

describe('the pause before a dead worker is forked again', () => {
  it('is 1 s, doubling with each quick death up to 30 s', () => {
    const slot = new RestartBackoff();
    expect(Array.from({ length: 8 }, () => slot.next(500))).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
  });

  it('starts again at 1 s after a worker that lived a minute', () => {
    const slot = new RestartBackoff();
    for (let i = 0; i < 4; i++) slot.next(5_000);
    expect(slot.next(59_999)).toBe(16_000);
    expect(slot.next(60_000)).toBe(1_000);
    expect(slot.next(100)).toBe(2_000);
  });
});
