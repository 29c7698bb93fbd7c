import { validate } from 'class-validator';
import { Response } from 'express';
import { IsLocaleTag } from '../../core/validation';
import { answerV1Failure, V1FailureContext } from '../../rest-adapter/v1/envelope';
import { customerListVariables } from '../../subgraphs/auth/surface/v1-customers';
import { segmentOf } from '../../subgraphs/cluster/surface/customer-segment-routes';
import { conflictOnField, notFoundByField } from '../../core/rest/failures';
import { toV1 } from '../../core/rest/case';
import { changedFields, customerProfileOf } from '../../subgraphs/auth/services/customer-events';
import { Gender, Member, MemberStatus } from '../../subgraphs/auth/entities/member';

class Tagged {
  @IsLocaleTag() language: unknown;
}
const tagAccepted = async (language: unknown) => (await validate(Object.assign(new Tagged(), { language }))).length === 0;

describe('IsLocaleTag', () => {
  it('accepts BCP 47 tags in any case and refuses what Intl does not take', async () => {
    for (const tag of ['en', 'th-TH', 'th-th', 'zh-Hans-CN', 'pt-BR']) expect([tag, await tagAccepted(tag)]).toEqual([tag, true]);
    for (const tag of ['', 'not a locale', 'en_US_', 'x'.repeat(36), 42, null, 'en-US,th']) expect([tag, await tagAccepted(tag)]).toEqual([tag, false]);
  });
});

describe('customer.updated: what changed', () => {
  const member = (): Member =>
    Object.assign(new Member(), {
      id: 'm1',
      name: 'Ann',
      email: 'ann@example.com',
      phoneNumber: '0800',
      gender: Gender.Female,
      address: { address: '1 Road', province: 'Bangkok', postCode: '10500', country: 'TH' },
      status: MemberStatus.ACTIVE as MemberStatus,
    });

  it('names the v1 fields whose value differs, never updated_at', () => {
    const before = member();
    const after = member();
    after.address = { ...after.address, postCode: '10110' };
    after.status = MemberStatus.INACTIVE;
    after.language = 'th';
    expect(changedFields(customerProfileOf(before), customerProfileOf(after)).sort()).toEqual(['address', 'language', 'status']);
    expect(changedFields(customerProfileOf(before), customerProfileOf(member()))).toEqual([]);
  });

  it('shows the member in the v1 spelling', () => {
    expect(toV1(customerProfileOf(member()))).toEqual({
      id: 'm1',
      name: 'Ann',
      email: 'ann@example.com',
      phone: '0800',
      date_of_birth: null,
      gender: 'female',
      address: { street: '1 Road', city: 'Bangkok', postal_code: '10500' },
      language: null,
      status: 'active',
      chatapp: null,
      updated_at: expect.any(String),
    });
  });
});

describe('v1 customers in the adapter', () => {
  it('shows manual segments as manual and computed (rule) ones as ai', () => {
    expect(segmentOf({ id: 's1', name_en: null, name_th: 'กลุ่ม', name_cn: null, type: 'rule' })).toEqual({ id: 's1', name: 'กลุ่ม', type: 'ai' });
    expect(segmentOf({ id: 's2', name_en: 'Picked', name_th: null, name_cn: null, type: 'manual' })).toEqual({ id: 's2', name: 'Picked', type: 'manual' });
  });

  it('passes filter[tier] on as the tier variable, trimmed, and refuses an empty one', () => {
    expect(customerListVariables({ filter: { tier: ' Gold ' } })).toMatchObject({ tier: 'Gold' });
    expect(customerListVariables({ 'filter[tier]': 'abc' })).toMatchObject({ tier: 'abc' });
    expect(() => customerListVariables({ filter: { tier: '' } })).toThrow(expect.objectContaining({ fieldErrors: [expect.objectContaining({ field: 'filter[tier]' })] }));
    expect(() => customerListVariables({ filter: { tier: ['a', 'b'] } })).toThrow();
  });
});

describe('v1 route error codes', () => {
  function answer(context: Partial<V1FailureContext>, status: number, fields?: string[]) {
    const recorded: { status?: number; body?: any } = {};
    const res = { set: () => res, status: (code: number) => ((recorded.status = code), res), json: (body: unknown) => ((recorded.body = body), res) };
    answerV1Failure(res as unknown as Response, { scope: 'write', params: ['id'], notFound: 'CUSTOMER_NOT_FOUND', ...context }, status, 'failed', fields?.map((field) => ({ field, message: 'bad' })));
    return recorded;
  }

  it('answers a 409 naming a field with the route’s conflict code, one naming none INVALID_STATE', () => {
    const duplicate = { own: conflictOnField('DUPLICATE') };
    expect(answer(duplicate, 409, ['email']).body.error).toMatchObject({ code: 'DUPLICATE', details: [{ field: 'email', message: 'bad' }] });
    expect(answer(duplicate, 409).body.error.code).toBe('INVALID_STATE');
    expect(answer(duplicate, 409, ['Idempotency-Key']).body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(answer({}, 409, ['email']).body.error.code).toBe('INVALID_STATE');
  });

  it('answers a 404 naming a mapped field with its own code, other 404s with the route’s', () => {
    const byField = { own: notFoundByField({ tierId: 'TIER_NOT_FOUND' }) };
    expect(answer(byField, 404, ['tierId']).body).toEqual({ error: { code: 'TIER_NOT_FOUND', message: 'failed' } });
    expect(answer(byField, 404).body.error.code).toBe('CUSTOMER_NOT_FOUND');
    expect(answer(byField, 400, ['id'])).toEqual({ status: 404, body: { error: { code: 'CUSTOMER_NOT_FOUND', message: 'Not found' } } });
  });
});
