import { validationError } from '../../../core/errors';
import { isRecordId } from '../../../core/ids';
import { arrayOf, ref } from '../../../core/rest/json-schema';
import { Route, V1_BASE } from '../../../core/rest/route';

const BASE = `${V1_BASE}/customers`;

/** A segment of the cluster service as v1 shows it: `manual` (picked by staff) or `ai` (computed by the platform: our rule segments). */
export const segmentOf = (segment: { id: string; name_en: string | null; name_th: string | null; name_cn: string | null; type: string }) => ({
  id: segment.id,
  name: segment.name_en ?? segment.name_th ?? segment.name_cn,
  type: segment.type === 'manual' ? 'manual' : 'ai',
});

/** Spec Part 3, a customer's segments: the cluster's answer about a customer. */
export const CUSTOMER_SEGMENT_ROUTES: Route[] = [
  {
    // Staff and keys with segment:read; a customer its own (contract section 2: `/customers/{own id}/...`).
    method: 'get',
    path: `${BASE}/:id/segments`,
    document: 'query V1CustomerSegments($id: ID!) { member(id: $id) { id } memberSegments(memberId: $id) { id name_en name_th name_cn type } }',
    envelope: 'v1',
    customer: { param: 'id' },
    doc: { summary: 'The segments a customer belongs to', response: arrayOf(ref('Segment')) },
    notFound: 'CUSTOMER_NOT_FOUND',
    variables: ({ params }) => {
      // Checked here: the segment query would name its own argument, not the path's id.
      if (!isRecordId(params.id)) throw validationError([{ field: 'id', message: 'id is not a customer id' }]);
      return { id: params.id };
    },
    payload: ({ memberSegments }) => memberSegments.map(segmentOf),
  },
];
