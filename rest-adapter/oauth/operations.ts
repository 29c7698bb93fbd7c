/** The GraphQL documents behind the OAuth 2.0 endpoints (/oauth/*); `npm run schema:check` validates each against the supergraph (ENGINE_OPERATIONS). */
const OUTCOME = 'step redirectTo error errorDescription clientName scopes';
const ERROR = 'error { status error errorDescription basic }';

export const OAUTH_OPERATIONS: Record<string, string> = {
  RegisterOAuthClient: `mutation RegisterOAuthClient($metadata: JSON!) { registerOAuthClient(metadata: $metadata) {
    clientId clientSecret clientIdIssuedAt clientSecretExpiresAt clientName redirectUris grantTypes responseTypes tokenEndpointAuthMethod scope } }`,
  OAuthAuthorizationRequest: `query OAuthAuthorizationRequest($params: [OAuthParamInput!]!) { oauthAuthorizationRequest(params: $params) { ${OUTCOME} } }`,
  OAuthAuthorizationDecision: `mutation OAuthAuthorizationDecision($params: [OAuthParamInput!]!, $decision: String!, $email: String, $password: String) {
    oauthAuthorizationDecision(params: $params, decision: $decision, email: $email, password: $password) { ${OUTCOME} } }`,
  OAuthToken: `mutation OAuthToken($params: [OAuthParamInput!]!, $authorization: String) { oauthToken(params: $params, authorization: $authorization) {
    token { accessToken tokenType expiresIn refreshToken scope } ${ERROR} } }`,
  OAuthRevoke: `mutation OAuthRevoke($params: [OAuthParamInput!]!, $authorization: String) { oauthRevoke(params: $params, authorization: $authorization) { ${ERROR} } }`,
  OAuthIntrospect: `mutation OAuthIntrospect($params: [OAuthParamInput!]!, $authorization: String) { oauthIntrospect(params: $params, authorization: $authorization) {
    introspection { active scope clientId tokenType exp iat sub iss } ${ERROR} } }`,
  ExchangeOAuthAccessToken: `mutation ExchangeOAuthAccessToken($accessToken: String!) { exchangeOAuthAccessToken(accessToken: $accessToken) { accessToken expiresIn } }`,
};
