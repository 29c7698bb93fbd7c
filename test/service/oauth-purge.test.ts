import { randomUUID } from 'node:crypto';
import { authModule } from '../../subgraphs/auth/module';
import { purgeOAuthRecords } from '../../subgraphs/auth/services/oauth-purge';
import { useModuleDatabase } from '../support/module-database';

const db = useModuleDatabase(authModule);
const HOUR = "interval '1 hour'";

let clientId: string;
beforeAll(async () => {
  clientId = randomUUID();
  await db.query(
    `insert into auth.oauth_client (id, client_id, name, redirect_uris, grant_types, token_endpoint_auth_method, scopes, created_by_kind, created_by_id, created_at)
     values (?, ?, 'App', '{https://app.example.com/cb}', '{authorization_code,refresh_token}', 'none', '{read}', 'staff', ?, now())`,
    [clientId, `lpc_${randomUUID()}`, randomUUID()],
  );
});

const code = (expiresIn: string) =>
  db.query(
    `insert into auth.oauth_authorization_code (id, code_hash, client_id, staff_id, redirect_uri, scopes, expires_at, created_at)
     values (?, ?, ?, ?, 'https://app.example.com/cb', '{read}', now() + ${expiresIn}, now()) returning id`,
    [randomUUID(), randomUUID(), clientId, randomUUID()],
  );
const token = (accessIn: string, refreshIn: string | null) =>
  db.query(
    `insert into auth.oauth_token (id, family_id, client_id, subject_kind, subject_id, scopes, access_token_hash, access_expires_at, refresh_token_hash, refresh_expires_at, created_at)
     values (?, ?, ?, 'staff', ?, '{read}', ?, now() + ${accessIn}, ?, ${refreshIn ? `now() + ${refreshIn}` : 'null'}, now()) returning id`,
    [randomUUID(), randomUUID(), clientId, randomUUID(), randomUUID(), refreshIn ? randomUUID() : null],
  );

it('deletes codes and tokens a day past their last expiry, and keeps the others', async () => {
  await code(`-25 * ${HOUR}`);
  const [recentCode] = await code(`-23 * ${HOUR}`);
  const [liveCode] = await code(`10 * ${HOUR}`);
  await token(`-800 * ${HOUR}`, `-25 * ${HOUR}`);
  const [liveRefresh] = await token(`-800 * ${HOUR}`, `1 * ${HOUR}`);
  await token(`-25 * ${HOUR}`, null);
  const [recentAccessOnly] = await token(`-1 * ${HOUR}`, null);
  expect(await purgeOAuthRecords(db.em())).toEqual({ codes: 1, tokens: 2 });
  const left = async (table: string) => (await db.query(`select id from auth.${table}`)).map((row) => row.id).sort();
  expect(await left('oauth_authorization_code')).toEqual([recentCode.id, liveCode.id].sort());
  expect(await left('oauth_token')).toEqual([liveRefresh.id, recentAccessOnly.id].sort());
});
