/** The GraphQL documents behind the /api/v1 auth routes; CI validates each against the supergraph. */
export const V1_AUTH_OPERATIONS: Record<string, string> = {
  V1ChatappLogin: `mutation V1ChatappLogin($code: String!, $appId: String) {
    chatappLogin(code: $code, appId: $appId) { accessToken refreshToken member { id openId unionId nickName avatarUrl } } }`,
};
