import { createServer, Server } from 'node:http';
import { AddressInfo, Socket } from 'node:net';

/** A span as OTLP/JSON carries it (ids in hex), with the service that sent it. */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  links: Array<{ traceId: string; spanId: string }>;
  attributes: Record<string, unknown>;
}

export interface FakeOtlpReceiver {
  /** The base URL for OTEL_EXPORTER_OTLP_ENDPOINT (the exporter posts to `/v1/traces`). */
  url: string;
  spans: ReceivedSpan[];
  close: () => Promise<void>;
}

type AnyValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
type KeyValue = { key: string; value: AnyValue };
const valueOf = (value: AnyValue) => value.stringValue ?? value.intValue ?? value.boolValue ?? value.doubleValue;
const attributesOf = (list: KeyValue[] = []) => Object.fromEntries(list.map(({ key, value }) => [key, valueOf(value)]));

/** An OpenTelemetry collector's OTLP/HTTP traces endpoint in JSON (`OTEL_EXPORTER_OTLP_PROTOCOL=http/json`): keeps every span it is sent. */
export async function startFakeOtlpReceiver(): Promise<FakeOtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') return void res.writeHead(404).end();
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      for (const resourceSpans of body.resourceSpans ?? []) {
        const service = String(attributesOf(resourceSpans.resource?.attributes)['service.name']);
        for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
          for (const span of scopeSpans.spans ?? []) {
            spans.push({
              service,
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId || undefined,
              name: span.name,
              kind: span.kind,
              links: (span.links ?? []).map((link: { traceId: string; spanId: string }) => ({ traceId: link.traceId, spanId: link.spanId })),
              attributes: attributesOf(span.attributes),
            });
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
