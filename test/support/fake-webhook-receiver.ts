import { createServer, IncomingHttpHeaders, Server, ServerResponse } from 'node:http';
import { AddressInfo, Socket } from 'node:net';

/** One request a receiver got: the path, headers and the raw body (what a verifier needs). */
export interface ReceivedDelivery {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  receivedAt: number;
}

/** How the receiver answers a path: a status (2xx accepts), `hang` (never answers), or a function. */
export type ReceiverBehaviour = number | 'hang' | ((delivery: ReceivedDelivery, res: ServerResponse) => void);

export interface FakeWebhookReceiver {
  url: string;
  received: ReceivedDelivery[];
  /** The receiver's answer for a path (`/a`); 200 unless set. */
  behave: (path: string, behaviour: ReceiverBehaviour) => void;
  /** What arrived on one path. */
  on: (path: string) => ReceivedDelivery[];
  /** The most requests on one path that were open (unanswered, connected) at the same time. */
  maxOpen: (path: string) => number;
  close: () => Promise<void>;
}

/**
 * A partner's webhook endpoint over plain HTTP on loopback: records every request, answers as told per
 * path. On `port` when given (a receiver started again where the platform delivers), else a free one.
 */
export async function startFakeWebhookReceiver(port = 0): Promise<FakeWebhookReceiver> {
  const behaviours = new Map<string, ReceiverBehaviour>();
  const sockets = new Set<Socket>();
  const received: ReceivedDelivery[] = [];
  const open = new Map<string, number>();
  const peak = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    open.set(path, (open.get(path) ?? 0) + 1);
    peak.set(path, Math.max(peak.get(path) ?? 0, open.get(path)!));
    res.once('close', () => open.set(path, open.get(path)! - 1));
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const delivery = { path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), receivedAt: Date.now() };
      received.push(delivery);
      const behaviour = behaviours.get(delivery.path) ?? 200;
      if (behaviour === 'hang') return;
      if (typeof behaviour === 'function') return behaviour(delivery, res);
      res.writeHead(behaviour, { 'content-type': 'text/plain' }).end(behaviour < 300 ? 'ok' : 'nope');
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    behave: (path, behaviour) => void behaviours.set(path, behaviour),
    on: (path) => received.filter((delivery) => delivery.path === path),
    maxOpen: (path) => peak.get(path) ?? 0,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
