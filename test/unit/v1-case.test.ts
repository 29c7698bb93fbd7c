import { camelCase, fromV1, snakeCase, toV1, v1FieldPath, v1Timestamp } from '../../core/rest/case';

describe('the v1 spelling', () => {
  it('turns camelCase keys into snake_case at every depth, leaving snake_case and single words alone', () => {
    expect(snakeCase('pointsBalance')).toBe('points_balance');
    expect(snakeCase('name_en')).toBe('name_en');
    expect(toV1({ pointsBalance: 1, address: { postalCode: '10110' }, items: [{ createdBy: 'x' }], openid: 'o' })).toEqual({
      points_balance: 1,
      address: { postal_code: '10110' },
      items: [{ created_by: 'x' }],
      openid: 'o',
    });
  });

  it('writes timestamps without milliseconds, from strings and dates, and leaves other strings as they are', () => {
    expect(v1Timestamp('2026-11-23T06:36:33.123Z')).toBe('2026-11-23T06:36:33Z');
    expect(v1Timestamp(new Date('2026-11-23T06:36:33.999Z'))).toBe('2026-11-23T06:36:33Z');
    expect(v1Timestamp('2026-11-23')).toBe('2026-11-23');
    expect(v1Timestamp('at 2026-11-23T06:36:33.123Z')).toBe('at 2026-11-23T06:36:33.123Z');
    expect(toV1({ createdAt: '2026-01-02T03:04:05.678Z', list: ['2026-01-02T03:04:05.000Z'], count: 3, none: null })).toEqual({
      created_at: '2026-01-02T03:04:05Z',
      list: ['2026-01-02T03:04:05Z'],
      count: 3,
      none: null,
    });
  });

  it('reads snake_case input into camelCase, values untouched', () => {
    expect(camelCase('date_from')).toBe('dateFrom');
    expect(camelCase('page')).toBe('page');
    expect(fromV1({ date_of_birth: '2000-01-01', address: { postal_code: 'a_b' }, tags: ['x_y'] })).toEqual({
      dateOfBirth: '2000-01-01',
      address: { postalCode: 'a_b' },
      tags: ['x_y'],
    });
  });

  it('names a bad field the way the caller spelled it', () => {
    expect(v1FieldPath('address.postCode')).toBe('address.post_code');
    expect(v1FieldPath('awards.2.points')).toBe('awards[2].points');
    expect(v1FieldPath('filter[status]')).toBe('filter[status]');
  });
});
