import { Route, V1_BASE } from '../../../core/rest/route';
import { arrayOf, boolean, nullable, object, oneOf, ref, string, timestamp } from '../../../core/rest/json-schema';
import { CHATAPP_CODE_BODY } from './components';
import { chatappLoginOf, MemberLoginRecord } from './v1-auth';

const CLIENTS = `${V1_BASE}/oauth/clients`;

/** An OAuth client as the operations select it. */
const OAUTH_CLIENT_FIELDS = 'clientId clientName: name redirectUris grantTypes tokenEndpointAuthMethod scopes active createdAt disabledAt';

const OAUTH_CLIENT = object(
  {
    client_id: string(),
    client_name: string(),
    redirect_uris: arrayOf(string({ format: 'uri' })),
    grant_types: arrayOf(oneOf('authorization_code', 'refresh_token', 'client_credentials')),
    token_endpoint_auth_method: oneOf('client_secret_basic', 'client_secret_post', 'none'),
    scope: string({ description: 'Space-separated v1 scopes the client may be granted' }),
    active: boolean({ description: 'false: disabled by an admin (it authenticates no more; its tokens were revoked)' }),
    created_at: timestamp(),
    disabled_at: nullable(timestamp()),
  },
  ['client_id', 'client_name', 'redirect_uris', 'grant_types', 'token_endpoint_auth_method', 'scope', 'active', 'created_at', 'disabled_at'],
);

interface OAuthClientRecord {
  scopes: string[];
  [field: string]: unknown;
}

/** A client as RFC 7591 names its metadata (`scope` space-separated). */
const clientOf = ({ scopes, ...client }: OAuthClientRecord) => ({ ...client, scope: scopes.join(' ') });

/**
 * Spec Part 3, chat-app login for mini programs: public, a refused code is 401 `INVALID_CODE`. And the
 * OAuth clients' administration (admin scope, `oauth-client:manage`): list, disable, delete, rotate.
 */
export const V1_AUTH_ROUTES: Route[] = [
  {
    method: 'post',
    path: `${V1_BASE}/auth/chatapp/login`,
    document: `mutation V1ChatappLogin($code: String!, $appId: String, $referralCode: String) {
      chatappLogin(code: $code, appId: $appId, referralCode: $referralCode) { accessToken refreshToken member { id openId unionId nickName avatarUrl } } }`,
    envelope: 'v1',
    public: true,
    credential: true,
    limitByAddress: true,
    unauthenticated: 'INVALID_CODE',
    doc: {
      summary: "Sign a customer in with a chat-app login code (the first login signs it up: `referral_code`, another customer's code, is read then)",
      bodyVariables: { ...CHATAPP_CODE_BODY, referral_code: 'referralCode' },
      response: ref('ChatappLogin'),
      errors: { 503: { SERVICE_UNAVAILABLE: 'the chat-app provider did not answer' } },
    },
    variables: ({ body }) => ({ code: body.code, appId: body.appId, referralCode: body.referralCode }),
    payload: ({ chatappLogin }) => chatappLoginOf(chatappLogin as MemberLoginRecord),
  },
  {
    method: 'get',
    path: CLIENTS,
    document: `query V1OAuthClients($page: Int, $limit: Int) { oauthClients(page: $page, limit: $limit) { meta { page limit total } data { ${OAUTH_CLIENT_FIELDS} } } }`,
    envelope: 'v1List',
    scope: 'admin',
    doc: { summary: 'Every registered OAuth client, disabled ones included, newest first', response: OAUTH_CLIENT },
    payload: ({ oauthClients }) => ({ ...oauthClients, data: oauthClients.data.map(clientOf) }),
  },
  {
    method: 'patch',
    path: `${CLIENTS}/:client_id`,
    document: `mutation V1SetOAuthClientActive($clientId: String!, $active: Boolean!) {
      setOAuthClientActive(clientId: $clientId, active: $active) { ${OAUTH_CLIENT_FIELDS} } }`,
    envelope: 'v1',
    scope: 'admin',
    notFound: 'OAUTH_CLIENT_NOT_FOUND',
    doc: {
      summary: 'active: false disables the client (every token it holds stops working at once, in every process); true lets it authenticate again',
      body: object({ active: boolean() }, ['active']),
      response: OAUTH_CLIENT,
    },
    variables: ({ params, body }) => ({ clientId: params.client_id, active: body.active }),
    payload: ({ setOAuthClientActive }) => clientOf(setOAuthClientActive),
  },
  {
    method: 'delete',
    path: `${CLIENTS}/:client_id`,
    document: 'mutation V1DeleteOAuthClient($clientId: String!) { deleteOAuthClient(clientId: $clientId) }',
    envelope: 'v1',
    status: 204,
    scope: 'admin',
    notFound: 'OAUTH_CLIENT_NOT_FOUND',
    doc: { summary: 'Deletes the client with its codes and tokens' },
    variables: ({ params }) => ({ clientId: params.client_id }),
  },
  {
    method: 'post',
    path: `${CLIENTS}/:client_id/rotate-secret`,
    document: 'mutation V1RotateOAuthClientSecret($clientId: String!) { rotateOAuthClientSecret(clientId: $clientId) { clientId clientSecret } }',
    envelope: 'v1',
    credential: true,
    scope: 'admin',
    notFound: 'OAUTH_CLIENT_NOT_FOUND',
    doc: {
      summary: "A confidential client's new secret, shown only in this answer: the old secret and the tokens issued to the client stop working at once",
      body: object({}),
      response: object({ client_id: string(), client_secret: string() }, ['client_id', 'client_secret']),
    },
    variables: ({ params }) => ({ clientId: params.client_id }),
  },
];
