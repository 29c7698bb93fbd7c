import { AddressInfo, createServer, connect, Server, Socket } from 'node:net';

type Mode = 'forward' | 'cut' | 'stall';

/** One client connection and its upstream, with the bytes held while stalled. */
interface Pair {
  client: Socket;
  upstream: Socket;
  held: Array<{ to: Socket; data: Buffer }>;
}

/**
 * A TCP proxy in front of a server (PostgreSQL), for the tests of a database that goes away: it
 * forwards, cuts (every connection closed, each new one closed as it arrives, as a server that is down
 * behind a balancer) or stalls (nothing passes either way, as a paused server), and restores.
 */
export class TcpProxy {
  private mode: Mode = 'forward';
  private readonly pairs = new Set<Pair>();
  /** Connections closed on arrival while cut. */
  refused = 0;

  private constructor(
    private readonly server: Server,
    private readonly target: { host: string; port: number },
  ) {
    server.on('connection', (client) => this.accept(client));
  }

  /** Listens on a free port of 127.0.0.1, forwarding to `target`. */
  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    const server = createServer();
    const proxy = new TcpProxy(server, target);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  /** The port it listens on. */
  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** `url` (a postgres:// URL) going through the proxy. */
  urlFor(url: string): string {
    const proxied = new URL(url);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(this.port);
    return proxied.toString();
  }

  /** Closes every connection and each new one until `restore`. */
  cut(): void {
    this.mode = 'cut';
    for (const pair of this.pairs) this.drop(pair);
  }

  /** Holds every byte, both ways, of every connection (new ones too) until `restore`. */
  stall(): void {
    this.mode = 'stall';
  }

  /** Forwards again, the bytes held while stalled first. */
  restore(): void {
    this.mode = 'forward';
    for (const pair of this.pairs) {
      for (const { to, data } of pair.held.splice(0)) to.write(data);
    }
  }

  /** Closes every connection and stops listening. */
  async close(): Promise<void> {
    for (const pair of this.pairs) this.drop(pair);
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: Socket): void {
    if (this.mode === 'cut') {
      this.refused += 1;
      client.destroy();
      return;
    }
    const pair: Pair = { client, upstream: connect(this.target.port, this.target.host), held: [] };
    this.pairs.add(pair);
    const pass = (from: Socket, to: Socket) =>
      from.on('data', (data) => {
        if (this.mode === 'stall') pair.held.push({ to, data });
        else to.write(data);
      });
    pass(client, pair.upstream);
    pass(pair.upstream, client);
    for (const socket of [client, pair.upstream]) {
      socket.on('error', () => this.drop(pair));
      socket.on('close', () => this.drop(pair));
    }
  }

  private drop(pair: Pair): void {
    this.pairs.delete(pair);
    pair.client.destroy();
    pair.upstream.destroy();
  }
}
