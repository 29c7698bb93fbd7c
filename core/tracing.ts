import { context, Link, propagation, ROOT_CONTEXT, Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { NodeSDK } from '@opentelemetry/sdk-node';

/**
 * OpenTelemetry traces (`docs/operations.md`, Traces), configured by the standard variables: on when
 * `OTEL_TRACES_EXPORTER` names an exporter, or an OTLP endpoint is set (`OTEL_EXPORTER_OTLP_ENDPOINT`,
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`), unless `OTEL_SDK_DISABLED=true`; sampling, protocol, headers and
 * resource are the SDK's own `OTEL_*`. Off, the SDK is not even loaded: the spans below are the API's
 * no-ops and every trace context is null.
 */
export function tracingWanted(env: NodeJS.ProcessEnv): boolean {
  if (env.OTEL_SDK_DISABLED === 'true') return false;
  if (env.OTEL_TRACES_EXPORTER) return env.OTEL_TRACES_EXPORTER !== 'none';
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

/** Probes and scrapes are not traced: they would drown the requests. */
const UNTRACED_PATHS = new Set(['/livez', '/readyz', '/healthz', '/metrics']);

/**
 * Starts the SDK with the maintained instrumentations of what a request crosses: HTTP in and out (W3C
 * `traceparent` between parts), express, and PostgreSQL statements (only within a trace: the job queue's
 * polling starts none). It must run before those modules load, so the entry points import
 * `core/tracing-start.ts` first.
 */
export function startTracing(env: NodeJS.ProcessEnv = process.env): NodeSDK | undefined {
  if (!tracingWanted(env)) return undefined;
  const { NodeSDK } = require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { ExpressInstrumentation, ExpressLayerType } = require('@opentelemetry/instrumentation-express') as typeof import('@opentelemetry/instrumentation-express');
  const { PgInstrumentation } = require('@opentelemetry/instrumentation-pg') as typeof import('@opentelemetry/instrumentation-pg');
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME ?? 'loyalty-platform',
    instrumentations: [
      new HttpInstrumentation({ ignoreIncomingRequestHook: (request) => UNTRACED_PATHS.has((request.url ?? '').split('?')[0]) }),
      // Routers and handlers, not each middleware: a span per middleware doubled a request's spans.
      new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE] }),
      new PgInstrumentation({ requireParentSpan: true, ignoreConnectSpans: true }),
    ],
  });
  sdk.start();
  return sdk;
}

const tracer = trace.getTracer('loyalty-platform');

/** The active trace as a W3C `traceparent`, for work that continues it later (an outbox row); null outside a trace or with tracing off. */
export function currentTraceparent(): string | null {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ?? null;
}

/** Links to the traces given as `traceparent`s (the requests that committed the events a job handles). */
export function linksTo(traceparents: ReadonlyArray<string | null | undefined>): Link[] {
  const links: Link[] = [];
  for (const traceparent of traceparents) {
    if (!traceparent) continue;
    const spanContext = trace.getSpanContext(propagation.extract(ROOT_CONTEXT, { traceparent }));
    if (spanContext) links.push({ context: spanContext });
  }
  return links;
}

/**
 * Runs `work` in a span of its own (the active one for what it calls: its statements nest in it),
 * ended when it settles and marked failed when it throws. `root` starts a new trace (work of its own,
 * linked to the requests it continues) rather than a child of the active span.
 */
export function inSpan<T>(name: string, options: { kind?: SpanKind; links?: Link[]; attributes?: Record<string, string | number>; root?: boolean }, work: (span: Span) => Promise<T>): Promise<T> {
  return tracer.startActiveSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, links: options.links, attributes: options.attributes, root: options.root }, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw error;
    } finally {
      span.end();
    }
  });
}
