import { createServer, Server, Socket } from 'node:net';
import { Pool } from 'pg';
import { withHeldClient } from '../../core/db/held-client';

/**
 * A PostgreSQL server that lets every connection in and ends it at once, as pg_terminate_backend does to
 * a backend that has just become ready: ReadyForQuery and the FATAL 57P01 in one network write, so that
 * pg-pool hands the client over (and drops its own error listener) in the same read as the error arrives.
 * The race the database-outage test met one run in ten, made certain.
 */
function terminatingServer(): Promise<{ port: number; server: Server }> {
  const message = (type: string, body: Buffer) => {
    const head = Buffer.alloc(5);
    head.write(type, 0);
    head.writeUInt32BE(body.length + 4, 1);
    return Buffer.concat([head, body]);
  };
  const cString = (text: string) => Buffer.from(`${text}\0`);
  const authenticationOk = message('R', Buffer.from([0, 0, 0, 0]));
  const ready = message('Z', Buffer.from('I'));
  const terminated = message('E', Buffer.concat([cString('SFATAL'), cString('VFATAL'), cString('C57P01'), cString('Mterminating connection due to administrator command'), Buffer.from([0])]));
  const server = createServer((socket: Socket) => {
    socket.once('data', () => {
      socket.write(Buffer.concat([authenticationOk, ready, terminated]));
      socket.end();
    });
    socket.on('error', () => undefined);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ port: (server.address() as { port: number }).port, server })));
}

describe('withHeldClient', () => {
  it('survives a connection the server ends in the read that made it ready: the work fails, the process does not', async () => {
    const { port, server } = await terminatingServer();
    const pool = new Pool({ connectionString: `postgres://nobody@127.0.0.1:${port}/none`, max: 1 });
    pool.on('error', () => undefined);
    const unheard: unknown[] = [];
    const listen = (error: unknown) => unheard.push(error);
    process.on('uncaughtException', listen);
    try {
      for (let attempt = 0; attempt < 5; attempt++) {
        await expect(withHeldClient(pool, (client) => client.query('select 1'))).rejects.toThrow(/not queryable|terminat|Connection/i);
      }
      // Whatever the server said was heard by someone: nothing reached the process.
      await new Promise((resolve) => setImmediate(resolve));
      expect(unheard).toEqual([]);
    } finally {
      process.off('uncaughtException', listen);
      await pool.end();
      server.close();
    }
  });
});
