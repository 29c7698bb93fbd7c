import { kindOf, METADATA_SCHEMAS, metadataErrors, notificationKindErrors } from '../../subgraphs/notification/services/notification-metadata';

const fields = (errors: Array<{ field: string }>) => errors.map((error) => error.field).sort();

describe('kindOf', () => {
  it('is the subtype for points and tier, else the type', () => {
    expect(kindOf('points', 'point_expired', null)).toBe('point_expired');
    expect(kindOf('points', null, null)).toBeNull();
    expect(kindOf('tier', null, 'tier_adjusted')).toBe('tier_adjusted');
    expect(kindOf('badge', null, null)).toBe('badge');
    expect(Object.keys(METADATA_SCHEMAS).sort()).toHaveLength(11);
  });
});

describe('notificationKindErrors', () => {
  it('refuses a subtype that does not belong to the type, and metadata without a subtype to read it as', () => {
    expect(fields(notificationKindErrors('news', 'point_received', 'tier_upgraded', null))).toEqual(['pointSubtype', 'tierSubtype']);
    expect(fields(notificationKindErrors('tier', null, null, { validUntil: '2026-01-01' }))).toEqual(['tierSubtype']);
    expect(notificationKindErrors('tier', null, null, {})).toEqual([]);
    expect(notificationKindErrors('points', null, null, null)).toEqual([]);
    expect(fields(notificationKindErrors('news', null, null, ['a']))).toEqual(['metadata']);
  });

  it('requires expiryDate and daysRemaining of a renewal reminder, with or without metadata', () => {
    expect(fields(notificationKindErrors('tier', null, 'tier_renewal_reminder', null))).toEqual(['metadata.daysRemaining', 'metadata.expiryDate']);
    expect(fields(notificationKindErrors('tier', null, 'tier_renewal_reminder', { expiryDate: null, daysRemaining: 2 }))).toEqual(['metadata.expiryDate']);
    expect(notificationKindErrors('tier', null, 'tier_renewal_reminder', { expiryDate: '2027-02-01', daysRemaining: 2 })).toEqual([]);
  });
});

describe('metadataErrors', () => {
  it('checks URLs (http and https only), ISO 8601 dates, enums, percentages, booleans, string arrays and localized objects', () => {
    expect(fields(metadataErrors('point_received', { receiptImageUrl: 'ftp://x.example/a' }))).toEqual(['metadata.receiptImageUrl']);
    expect(metadataErrors('point_received', { receiptImageUrl: 'https://x.example/a.png?x=1' })).toEqual([]);
    expect(fields(metadataErrors('point_expired', { expiryDate: '2026-13-01' }))).toEqual(['metadata.expiryDate']);
    expect(metadataErrors('point_expired', { expiryDate: '2026-12-01T10:00:00+07:00' })).toEqual([]);
    expect(fields(metadataErrors('badge', { progressPercentage: 100.5 }))).toEqual(['metadata.progressPercentage']);
    expect(metadataErrors('badge', { progressPercentage: 0, unlockPercentage: 100, daysLeft: null })).toEqual([]);
    expect(fields(metadataErrors('receipt_error', { canRetry: 1 }))).toEqual(['metadata.canRetry']);
    expect(fields(metadataErrors('tier_upgraded', { benefits_cn: ['a', 2] }))).toEqual(['metadata.benefits_cn']);
    expect(fields(metadataErrors('badge', { badgeNames: { en: 'a', de: 'b' } }))).toEqual(['metadata.badgeNames']);
    expect(fields(metadataErrors('news', { priority: 'HIGH' }))).toEqual(['metadata.priority']);
    expect(fields(metadataErrors('receipt_processing', { status: 'validating', statusMessage_fr: 'x' }))).toEqual(['metadata.statusMessage_fr']);
    expect(fields(metadataErrors('point_nearly_expire', { points: Number.NaN, daysRemaining: '3' }))).toEqual(['metadata.daysRemaining', 'metadata.points']);
  });
});
