import type { V1PlatformFailure, V1RouteFailure } from '../route';

/** The campaign routes' own failures: a refusal's `data.rule` is its code (422, or 409 ALREADY_JOINED); a member not found is CUSTOMER_NOT_FOUND. */
export function campaignFailure(failure: V1PlatformFailure): V1RouteFailure | undefined {
  const rule = (failure.data as { rule?: string } | undefined)?.rule;
  if (rule === 'ALREADY_JOINED' && failure.status === 409) return { status: 409, code: rule, message: failure.message };
  if (rule && failure.status === 400) return { status: 422, code: rule, message: failure.message };
  if (failure.status === 404 && /^Member\b/.test(failure.message)) return { status: 404, code: 'CUSTOMER_NOT_FOUND', message: failure.message };
  return undefined;
}
