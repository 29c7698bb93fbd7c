import { startTracing } from './tracing';

/** The SDK of this process, when OTEL_* asks for traces. Imported first by the entry points: it must patch http, express and pg before they load. */
export const tracing = startTracing();
