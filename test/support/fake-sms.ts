import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo, Socket } from 'node:net';

export interface ReceivedSms {
  to: string;
  text: string;
  reference: string;
  headers: IncomingHttpHeaders;
}

/** Answers for one phone number, used in order (then 200): a status, or `hang` (never answers). */
export type SmsAnswer = number | 'hang';

export interface FakeSms {
  url: string;
  /** Messages answered 2xx (taken). */
  taken: ReceivedSms[];
  /** Every request, whatever the answer. */
  requests: ReceivedSms[];
  answer: (to: string, answers: SmsAnswer[]) => void;
  close: () => Promise<void>;
}

/** An HTTP SMS gateway: takes `POST {to, text, reference}` and answers as told per number. */
export async function startFakeSms(): Promise<FakeSms> {
  const planned = new Map<string, SmsAnswer[]>();
  const taken: ReceivedSms[] = [];
  const requests: ReceivedSms[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
      const sms: ReceivedSms = { to: body.to, text: body.text, reference: body.reference, headers: req.headers };
      requests.push(sms);
      const next = planned.get(sms.to)?.shift() ?? 200;
      if (next === 'hang') return;
      if (next < 300) taken.push(sms);
      res.writeHead(next, { 'content-type': 'application/json' }).end(JSON.stringify(next < 300 ? { id: `sms-${requests.length}` } : { error: `status ${next}` }));
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/send`,
    taken,
    requests,
    answer: (to, answers) => void planned.set(to, [...answers]),
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
