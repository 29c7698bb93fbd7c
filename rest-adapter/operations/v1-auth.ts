const OAUTH_CLIENT = 'clientId clientName: name redirectUris grantTypes tokenEndpointAuthMethod scopes active createdAt disabledAt';

/** The GraphQL documents behind the /api/v1 auth routes; CI validates each against the supergraph. */
export const V1_AUTH_OPERATIONS: Record<string, string> = {
  V1ChatappLogin: `mutation V1ChatappLogin($code: String!, $appId: String) {
    chatappLogin(code: $code, appId: $appId) { accessToken refreshToken member { id openId unionId nickName avatarUrl } } }`,
  V1OAuthClients: `query V1OAuthClients($page: Int, $limit: Int) { oauthClients(page: $page, limit: $limit) { meta { page limit total } data { ${OAUTH_CLIENT} } } }`,
  V1SetOAuthClientActive: `mutation V1SetOAuthClientActive($clientId: String!, $active: Boolean!) { setOAuthClientActive(clientId: $clientId, active: $active) { ${OAUTH_CLIENT} } }`,
  V1DeleteOAuthClient: `mutation V1DeleteOAuthClient($clientId: String!) { deleteOAuthClient(clientId: $clientId) }`,
  V1RotateOAuthClientSecret: `mutation V1RotateOAuthClientSecret($clientId: String!) { rotateOAuthClientSecret(clientId: $clientId) { clientId clientSecret } }`,
};
