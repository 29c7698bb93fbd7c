import type { V1PlatformFailure, V1RouteFailure } from '../../core/rest/route';
import { declaredFailure } from '../../core/rest/failures';

/** The campaign routes' own failures: a refusal's `data.rule` is its code (422, or 409 ALREADY_JOINED); a member not found is CUSTOMER_NOT_FOUND. */
function answerCampaignFailure(failure: V1PlatformFailure): V1RouteFailure | undefined {
  const rule = (failure.data as { rule?: string } | undefined)?.rule;
  if (rule === 'ALREADY_JOINED' && failure.status === 409) return { status: 409, code: rule, message: failure.message };
  if (rule && failure.status === 400) return { status: 422, code: rule, message: failure.message };
  if (failure.status === 404 && /^Member\b/.test(failure.message)) return { status: 404, code: 'CUSTOMER_NOT_FOUND', message: failure.message };
  return undefined;
}

/** Its business rules (422) are the join route's to declare. */
export const campaignFailure = declaredFailure(
  { 404: { CUSTOMER_NOT_FOUND: 'no customer by customer_id' }, 409: { ALREADY_JOINED: 'the customer takes part already (per_customer_limit counts joins)' } },
  answerCampaignFailure,
);
