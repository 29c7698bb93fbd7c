import { AddressInfo, connect, createServer, Server, Socket } from 'node:net';

/**
 * A TCP proxy in front of PostgreSQL, for the tests of a database outage: `cut` drops every
 * connection and refuses new ones (a crashed or restarting server), `stall` keeps accepting but
 * forwards nothing (a paused server or a dead network path), `restore` forwards again.
 */
export class TcpProxy {
  private readonly server: Server;
  private readonly pairs = new Set<[Socket, Socket]>();
  private mode: 'forward' | 'cut' | 'stall' = 'forward';

  private constructor(private readonly target: { host: string; port: number }) {
    this.server = createServer((client) => this.accept(client));
  }

  /** A proxy on a free port of 127.0.0.1 to `url`'s host and port; `url` is a database URL. */
  static async to(url: string): Promise<TcpProxy> {
    const parsed = new URL(url);
    const proxy = new TcpProxy({ host: parsed.hostname, port: Number(parsed.port || 5432) });
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  /** `url` with its host and port replaced by the proxy's. */
  urlFor(url: string): string {
    const parsed = new URL(url);
    parsed.hostname = '127.0.0.1';
    parsed.port = String((this.server.address() as AddressInfo).port);
    return parsed.toString();
  }

  /** Destroys every open connection and refuses (closes at once) those that come. */
  cut(): void {
    this.mode = 'cut';
    for (const [client, upstream] of this.pairs) {
      client.destroy();
      upstream.destroy();
    }
    this.pairs.clear();
  }

  /** Open connections stop carrying bytes; new ones are accepted and never answered. */
  stall(): void {
    this.mode = 'stall';
    for (const pair of this.pairs) flow(pair, false);
  }

  /** Forwards again: stalled connections resume, new ones reach the server. */
  restore(): void {
    this.mode = 'forward';
    for (const pair of this.pairs) flow(pair, true);
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: Socket): void {
    client.on('error', () => undefined);
    if (this.mode === 'cut') return void client.destroy();
    const upstream = connect(this.target.port, this.target.host);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    const pair: [Socket, Socket] = [client, upstream];
    this.pairs.add(pair);
    const forget = () => this.pairs.delete(pair);
    client.on('close', () => {
      forget();
      upstream.destroy();
    });
    upstream.on('close', () => {
      forget();
      client.destroy();
    });
    flow(pair, this.mode === 'forward');
  }
}

/** Carries bytes both ways, or holds them (unpiped and paused: nothing is read, nothing is sent). */
function flow([client, upstream]: [Socket, Socket], on: boolean): void {
  if (on) {
    client.pipe(upstream);
    upstream.pipe(client);
    return;
  }
  client.unpipe(upstream);
  upstream.unpipe(client);
  client.pause();
  upstream.pause();
}
