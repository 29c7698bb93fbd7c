import { PointExpiryPolicy } from '../settings';

/** When a lot earned at `earnedAt` expires under the policy (null: never). */
export function expiresAtFor(policy: PointExpiryPolicy, earnedAt: Date): Date | null {
  switch (policy.kind) {
    case 'never':
      return null;
    case 'days':
      return new Date(earnedAt.getTime() + policy.days * 24 * 3600 * 1000);
    case 'end-of-month':
      return new Date(Date.UTC(earnedAt.getUTCFullYear(), earnedAt.getUTCMonth() + 1, 1));
  }
}
