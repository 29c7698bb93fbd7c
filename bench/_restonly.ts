import { Agent, request } from 'node:http';
import express from 'express';
import { listen } from '../core/http';
import { createRestApp } from '../rest-adapter/app';
import { apiSchemaOf, readSupergraphSdl } from '../core/supergraph';
import { createLogger } from '../core/logger';
import { startBenchTarget } from './target';
async function m(name: string, url: string, token: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: 10 });
  const op = () => new Promise<void>((resolve, reject) => { request(url, { agent, headers: { authorization: `Bearer ${token}` } }, (r) => { r.resume(); r.once('end', () => r.statusCode === 200 ? resolve() : reject(new Error(String(r.statusCode)))); }).once('error', reject).end(); });
  const N = 6000; const run = async (n: number) => { let i = 0; await Promise.all(Array.from({ length: 10 }, async () => { while (i++ < n) await op(); })); };
  await run(2000); const c = process.cpuUsage(); await run(N); const u = process.cpuUsage(c);
  console.log(name.padEnd(50), ((u.user + u.system) / N).toFixed(0));
}
(async () => {
  const { platform, pool, token, config } = await startBenchTarget();
  const staff = (await platform.executors.gateway({ query: 'query CurrentStaff { currentStaff { id email firstname lastname phoneNumber roleId storeId status locale createdAt updatedAt } }' }, { authorization: `Bearer ${token}`, requestId: 'x' })).data;
  const app = createRestApp({ config, apiSchema: apiSchemaOf(readSupergraphSdl()), logger: createLogger('rest', 'warn'), rateLimiter: platform.rateLimiter, gateway: async () => ({ data: staff }) });
  const server = await listen(app, 0, '127.0.0.1');
  const bare = express(); bare.get('/x', (_q, r) => void r.json({ statusCode: 200, data: { message: 'Current staff', data: (staff as any).currentStaff } }));
  const bareServer = await listen(bare, 0, '127.0.0.1');
  for (let r = 0; r < 2; r++) {
    await m('bare express answering the same JSON', `http://127.0.0.1:${bareServer.port}/x`, token);
    await m('REST app with a constant gateway', `http://127.0.0.1:${server.port}/auth/api/staffs/me`, token);
    await m('REST app, a late route (constant gateway)', `http://127.0.0.1:${server.port}/cluster/api/tiers/count`, token);
  }
  await server.close(); await bareServer.close(); await pool.end(); await platform.close();
})();
