import { API_SCOPES } from '../core/auth/scopes';
import { GraphqlClient } from './graphql-client';

/** The seeder's own key lives this long: long enough for a run, revoked at its end anyway. */
const KEY_LIFETIME_MS = 2 * 3600 * 1000;
/** Well above the requests of a run of 1,000 members (about 10,000), which the standard tier's 1,000 an hour would refuse. */
const KEY_RATE_LIMIT_PER_HOUR = 1_000_000;

export interface DemoSession {
  /** Calls made as the seeder's service key. */
  client: GraphqlClient;
  /** Calls made as the admin. */
  staff: GraphqlClient;
  /** Revokes the seeder's key. */
  close: () => Promise<void>;
}

/**
 * Signs the admin in and makes the seeder a short-lived service API key of the admin role with every
 * scope and an hourly limit of its own, as a partner's bulk import would: the admin's own token has the
 * standard limit of 1,000 requests an hour.
 */
export async function openSession(graphqlUrl: string, email: string, password: string): Promise<DemoSession> {
  const anonymous = new GraphqlClient(graphqlUrl);
  const { staffLogin } = await anonymous.request<{ staffLogin: { accessToken: string } }>(
    `mutation DemoLogin($input: StaffLoginInput!) { staffLogin(input: $input) { accessToken } }`,
    { input: { email, password } },
  );
  const admin = anonymous.as(staffLogin.accessToken);
  const { roles } = await admin.request<{ roles: Array<{ id: string; key: string }> }>(`query DemoRoles { roles { id key } }`);
  const adminRole = roles.find((role) => role.key === 'admin');
  if (!adminRole) throw new Error('the platform has no admin role');
  const { generateApiKey: key } = await admin.request<{ generateApiKey: { id: string; apiKey: string } }>(
    `mutation DemoKey($input: GenerateApiKeyInput!) { generateApiKey(input: $input) { id apiKey } }`,
    { input: { name: 'demo seeder', roleId: adminRole.id, expiredIn: KEY_LIFETIME_MS, scopes: [...API_SCOPES], rateLimitPerHour: KEY_RATE_LIMIT_PER_HOUR } },
  );
  const { exchangeApiKey } = await anonymous.request<{ exchangeApiKey: { accessToken: string } }>(
    `mutation DemoExchange($apiKey: String!) { exchangeApiKey(apiKey: $apiKey) { accessToken } }`,
    { apiKey: key.apiKey },
  );
  return {
    client: anonymous.as(exchangeApiKey.accessToken),
    staff: admin,
    close: async () => {
      await admin.request(`mutation DemoRevoke($id: ID!) { revokeApiKey(id: $id) }`, { id: key.id });
    },
  };
}
