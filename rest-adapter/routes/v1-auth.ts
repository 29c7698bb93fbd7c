import { Route } from '../route';
import { chatappLoginOf, MemberLoginRecord } from '../v1/auth';
import { V1_BASE } from '../v1/envelope';
import { CHATAPP_CODE_BODY, ref } from '../v1/openapi-schemas';

/** Spec Part 3, chat-app login for mini programs: public, a refused code is 401 `INVALID_CODE`. */
export const V1_AUTH_ROUTES: Route[] = [
  {
    method: 'post',
    path: `${V1_BASE}/auth/chatapp/login`,
    operation: 'V1ChatappLogin',
    envelope: 'v1',
    public: true,
    limitByAddress: true,
    unauthenticated: 'INVALID_CODE',
    doc: {
      summary: 'Sign a customer in with a chat-app login code',
      body: CHATAPP_CODE_BODY,
      response: ref('ChatappLogin'),
      errors: { 503: 'SERVICE_UNAVAILABLE: the chat-app provider did not answer' },
    },
    variables: ({ body }) => ({ code: body.code, appId: body.appId }),
    payload: ({ chatappLogin }) => chatappLoginOf(chatappLogin as MemberLoginRecord),
  },
];
