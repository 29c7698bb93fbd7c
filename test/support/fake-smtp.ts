import { AddressInfo, createServer, Server, Socket } from 'node:net';

export interface ReceivedMail {
  to: string[];
  raw: string;
}

export interface FakeSmtp {
  url: string;
  mails: ReceivedMail[];
  /** The last mail sent to `to`. */
  lastTo: (to: string) => ReceivedMail | undefined;
  /** Replies `codes` (in order, one per try) to RCPT TO this address before accepting it. */
  refuse: (address: string, codes: number[]) => void;
  /** The next RCPT TO this address gets no answer at all (the server hangs until the client gives up). */
  hang: (address: string) => void;
  /** Addresses whose RCPT TO went unanswered (by `hang`), in order. */
  hung: string[];
  close: () => Promise<void>;
}

/** A minimal SMTP server that accepts every message and keeps it for the test to read. */
export async function startFakeSmtp(): Promise<FakeSmtp> {
  const mails: ReceivedMail[] = [];
  const refusals = new Map<string, number[]>();
  const hangs = new Set<string>();
  const hung: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let buffer = '';
    let inData = false;
    /** Hung (see `hang`): this connection answers nothing more. */
    let silent = false;
    let current: ReceivedMail = { to: [], raw: '' };
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 fake-smtp ready');
    socket.on('data', (chunk) => {
      if (silent) return;
      buffer += chunk.toString('utf8');
      while (true) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end === -1) return;
          current.raw = buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          mails.push(current);
          current = { to: [], raw: '' };
          inData = false;
          reply('250 OK: queued');
          continue;
        }
        const newline = buffer.indexOf('\r\n');
        if (newline === -1) return;
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 2);
        const command = line.slice(0, 4).toUpperCase();
        if (command === 'EHLO' || command === 'HELO') reply('250 fake-smtp');
        else if (command === 'MAIL') reply('250 OK');
        else if (command === 'RCPT') {
          const address = /<([^>]+)>/.exec(line)?.[1] ?? '';
          if (hangs.delete(address)) {
            hung.push(address);
            silent = true;
            return;
          }
          const refusal = refusals.get(address)?.shift();
          if (refusal !== undefined) reply(`${refusal} ${refusal >= 500 ? 'mailbox unavailable' : 'try again later'}`);
          else {
            current.to.push(address);
            reply('250 OK');
          }
        } else if (command === 'DATA') {
          inData = true;
          reply('354 End data with <CR><LF>.<CR><LF>');
        } else if (command === 'QUIT') {
          reply('221 Bye');
          socket.end();
        } else reply('250 OK');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${(server.address() as AddressInfo).port}`,
    mails,
    refuse: (address, codes) => void refusals.set(address, [...codes]),
    hang: (address) => void hangs.add(address),
    hung,
    lastTo: (to) => [...mails].reverse().find((mail) => mail.to.includes(to)),
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
