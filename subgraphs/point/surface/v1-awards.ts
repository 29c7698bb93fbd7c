import { validationError } from '../../../core/errors';
import type { V1PlatformFailure, V1RouteFailure } from '../../../core/rest/route';
import { declaredFailure } from '../../../core/rest/failures';
import { customerIdOf } from '../../../core/rest/path-ids';
import { MAX_BATCH_AWARDS } from '../types/award.types';

/** The award operation's variables: the path's customer, the body's fields, `metadata` as the caller spelled its keys. */
export function awardVariables(params: Record<string, string>, body: Record<string, unknown>, rawBody: Record<string, unknown> | undefined): Record<string, unknown> {
  const memberId = customerIdOf(params);
  const { points, reason, transactionId } = body;
  const metadata = rawBody?.metadata;
  // The supergraph's JSONObject scalar takes anything: the adapter checks that metadata is an object.
  if (metadata !== undefined && metadata !== null && (typeof metadata !== 'object' || Array.isArray(metadata))) {
    throw validationError([{ field: 'metadata', message: 'metadata is a JSON object' }]);
  }
  return { input: { memberId, points, reason, transactionId, metadata } };
}

/**
 * The batch operation's variables: `awards` a list of 1 to MAX_BATCH_AWARDS rows `{customer_id, points,
 * reason}` (400 on `awards` otherwise); the rows' fields are checked by the operation's types, each
 * error named after its row (`awards[2].points`).
 */
export function batchAwardVariables(body: Record<string, unknown>): Record<string, unknown> {
  const { awards } = body;
  if (!Array.isArray(awards) || awards.length === 0 || awards.length > MAX_BATCH_AWARDS) {
    throw validationError([{ field: 'awards', message: `awards is a list of 1 to ${MAX_BATCH_AWARDS} awards` }]);
  }
  const rows = awards.map((row) => (row && typeof row === 'object' && !Array.isArray(row) ? { memberId: row.customerId, points: row.points, reason: row.reason } : row));
  return { input: { awards: rows } };
}

/**
 * The point domain's row field `memberId` as the v1 caller spells it (`awards[2].customer_id`): in the field
 * errors' fields and in their messages, which name the field.
 */
function answerBatchAwardFailure(failure: V1PlatformFailure): V1RouteFailure | undefined {
  if (failure.status !== 400 || !failure.fieldErrors?.length) return undefined;
  const fieldErrors = failure.fieldErrors.map(({ field, message }) => ({ field: field.replace(/\.memberId$/, '.customerId'), message: message.replaceAll('memberId', 'customer_id') }));
  return { status: 400, code: 'VALIDATION_ERROR', message: failure.message, fieldErrors };
}

export const batchAwardFailure = declaredFailure({}, answerBatchAwardFailure);

interface AwardResult {
  memberId: string;
  success: boolean;
  transactionId: string | null;
  error: { code: string; message: string } | null;
}

/** `{processed, failed, results: [{customer_id, success, transaction_id, error?}]}`. */
export function batchOutcomeOf(outcome: { processed: number; failed: number; results: AwardResult[] }): Record<string, unknown> {
  return {
    processed: outcome.processed,
    failed: outcome.failed,
    results: outcome.results.map(({ memberId, success, transactionId, error }) => ({ customerId: memberId, success, transactionId, ...(error ? { error } : {}) })),
  };
}
