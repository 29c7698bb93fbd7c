import { get, IncomingHttpHeaders } from 'node:http';

/** One server-sent event as a client reads it: its `id:` (if any) and its `data:` parsed as JSON. */
export interface ReceivedEvent {
  id?: string;
  data: any;
  /** When the client read it (performance.now()). */
  receivedAt: number;
}

/**
 * A `text/event-stream` client over node's http (a real streaming response, read as it arrives):
 * `events` grows as events come; a non-200 answer is read whole into `body`. `close()` leaves.
 */
export class EventStreamClient {
  readonly events: ReceivedEvent[] = [];
  status = 0;
  headers: IncomingHttpHeaders = {};
  body: any;
  ended = false;
  onEvent?: (event: ReceivedEvent) => void;
  private destroy: () => void = () => undefined;

  /** Opens the stream; resolves once the status and headers arrived (a non-200 once its body did too). */
  static open(url: string, headers: Record<string, string> = {}): Promise<EventStreamClient> {
    const client = new EventStreamClient();
    return new Promise((resolve, reject) => {
      const request = get(url, { headers: { accept: 'text/event-stream', ...headers } }, (response) => {
        client.status = response.statusCode ?? 0;
        client.headers = response.headers;
        response.setEncoding('utf8');
        response.on('end', () => (client.ended = true));
        response.on('close', () => (client.ended = true));
        if (client.status !== 200) {
          let text = '';
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () => {
            client.body = text ? JSON.parse(text) : undefined;
            resolve(client);
          });
          return;
        }
        let pending = '';
        response.on('data', (chunk: string) => {
          const blocks = (pending + chunk).split('\n\n');
          pending = blocks.pop() ?? '';
          for (const block of blocks) client.received(block);
        });
        resolve(client);
      });
      request.on('error', (error) => (client.status ? (client.ended = true) : reject(error)));
      client.destroy = () => request.destroy();
    });
  }

  /** The events of the given `type` so far. */
  ofType(type: string): ReceivedEvent[] {
    return this.events.filter((event) => event.data?.type === type);
  }

  close(): void {
    this.destroy();
  }

  private received(block: string): void {
    let id: string | undefined;
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('id: ')) id = line.slice(4);
      else if (line.startsWith('data: ')) data.push(line.slice(6));
    }
    if (data.length === 0) return;
    const event: ReceivedEvent = { ...(id ? { id } : {}), data: JSON.parse(data.join('\n')), receivedAt: performance.now() };
    this.events.push(event);
    this.onEvent?.(event);
  }
}
