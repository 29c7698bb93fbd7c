import type { V1PlatformFailure, V1RouteFailure } from '../../../core/rest/route';
import { declaredFailure } from '../../../core/rest/failures';

/** The campaign routes' own failures: a refusal's reason is its code (422, or 409 ALREADY_JOINED). */
function answerCampaignFailure({ status, reason, message }: V1PlatformFailure): V1RouteFailure | undefined {
  if (reason === 'ALREADY_JOINED' && status === 409) return { status: 409, code: reason, message };
  if (reason && status === 400) return { status: 422, code: reason, message };
  return undefined;
}

/** Its business rules (422) are the join route's to declare. */
export const campaignFailure = declaredFailure({ 409: { ALREADY_JOINED: 'the customer takes part already (per_customer_limit counts joins)' } }, answerCampaignFailure);
