import { Route } from './route';
import { EventStream } from './event-stream';
import { JsonSchema } from './json-schema';

/**
 * One of the domain's internal events as a public (webhook) event of Part 3: its public type and how its
 * `data` is built from the internal payload, at fan-out time. `lookup` runs a document on the gateway, for
 * data that needs a name the payload does not carry (a tier's name from its id).
 */
export interface PublicEvent<Payload = any> {
  /** The internal event type (the domain contract's `events`). */
  internal: string;
  /** The Part 3 type a webhook subscribes to (`customer.created`). */
  type: string;
  data: (payload: Payload, lookup: PublicEventLookup) => Record<string, unknown> | Promise<Record<string, unknown>>;
  /** The permissions the documents `data` runs through `lookup` need (the platform's fan-out caller holds them). */
  lookupPermissions?: readonly string[];
}

/** Runs a gateway query for a public event's data, as the platform's internal caller. */
export type PublicEventLookup = <T = Record<string, any>>(document: string, variables?: Record<string, unknown>) => Promise<T>;

/**
 * A file the domain hands out by signed URL (core/storage/signed-url.ts), from object storage: served
 * without a token to whoever holds a URL signed for `purpose`, until it expires (the signature is the
 * credential); 403 `INVALID_SIGNATURE` for a URL not signed, changed or expired; `gone` once the file is
 * no longer kept.
 */
export interface SignedDownload {
  /** Its path for a record id; served for every id (`path(':id')`), each URL signing its own path. */
  path: (id: string) => string;
  /** What its URLs are signed for. */
  purpose: string;
  /** The file's key in object storage. */
  file: (id: string) => string;
  contentType: string;
  /** The attachment's file name. */
  filename: (id: string) => string;
  /** The 403's message: what to do for a valid URL. */
  invalid: string;
  /** The 404 once the file is no longer kept (`REPORT_NOT_FOUND`). */
  gone: { code: string; message: string };
}

/**
 * A domain's outside, declared in `subgraphs/<domain>/surface/`: its REST routes (Part 1–2 and v1), the v1
 * resources they answer (OpenAPI components, by name), its public events, its live event streams and its signed downloads. The
 * registry merges every domain's (subgraphs/registry.ts `platformSurface`).
 */
export interface DomainSurface {
  routes: readonly Route[];
  components?: Readonly<Record<string, JsonSchema>>;
  publicEvents?: readonly PublicEvent[];
  /** Served before every route. */
  streams?: readonly EventStream[];
  downloads?: readonly SignedDownload[];
}

/** Every domain's surface as one: routes and streams in registry order, components, public events and downloads by name, each name once. */
export function mergeSurfaces(surfaces: readonly DomainSurface[]): Required<DomainSurface> {
  const routes = surfaces.flatMap((surface) => surface.routes);
  const components: Record<string, JsonSchema> = {};
  const publicEvents = surfaces.flatMap((surface) => surface.publicEvents ?? []);
  const streams = surfaces.flatMap((surface) => surface.streams ?? []);
  const downloads = surfaces.flatMap((surface) => surface.downloads ?? []);
  const once = (kind: string, names: string[]) => {
    const seen = new Set<string>();
    for (const name of names) {
      if (seen.has(name)) throw new Error(`Two surfaces declare the ${kind} ${name}`);
      seen.add(name);
    }
  };
  once('route', [...streams.map((stream) => `GET ${stream.path}`), ...routes.map((route) => `${route.method.toUpperCase()} ${route.path}`)]);
  once('component', surfaces.flatMap((surface) => Object.keys(surface.components ?? {})));
  once('public event', publicEvents.map((event) => event.type));
  once('public event of', publicEvents.map((event) => event.internal));
  once('download', downloads.map((download) => download.path(':id')));
  for (const surface of surfaces) Object.assign(components, surface.components);
  const shadowed = routes.flatMap((later, index) => routes.slice(0, index).filter((earlier) => shadows(earlier, later)).map((earlier) => `${earlier.path} before ${later.path}`));
  if (shadowed.length > 0) throw new Error(`Routes served before others that they would answer: ${shadowed.join('; ')}`);
  return { routes, components, publicEvents, streams, downloads };
}

/** Whether `earlier` answers every request `later` would (`/x/:id` before `/x/stats`): express serves the first match. */
function shadows(earlier: Route, later: Route): boolean {
  if (earlier.method !== later.method) return false;
  const pattern = new RegExp(`^${earlier.path.replace(/:\w+/g, '[^/]+')}$`);
  return pattern.test(later.path.replace(/:\w+/g, '\u0000'));
}
