import { post } from '../core/http-client';

interface GraphqlError {
  message: string;
  extensions?: { code?: string; reason?: string };
}

/** A refusal or failure the gateway answered, with its stable code (`CONFLICT`, `BAD_REQUEST`, ...) and reason. */
export class DemoApiError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
    readonly reason: string | undefined,
  ) {
    super(message);
  }
}

/** Calls the gateway's GraphQL endpoint as the admin UI does: one operation per request, with a bearer token. */
export class GraphqlClient {
  constructor(
    private readonly url: string,
    private readonly token?: string,
  ) {}

  /** The same endpoint with another caller's token. */
  as(token: string): GraphqlClient {
    return new GraphqlClient(this.url, token);
  }

  /** The operation's data; a DemoApiError carrying the first error when the answer has any. */
  async request<T>(document: string, variables: Record<string, unknown> = {}): Promise<T> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    const answer = await post(this.url, JSON.stringify({ query: document, variables }), headers);
    const body = parseBody(answer.text, answer.status);
    const [first] = body.errors ?? [];
    if (first) throw new DemoApiError(`${first.message} (${operationName(document)})`, first.extensions?.code, first.extensions?.reason);
    if (!body.data) throw new DemoApiError(`HTTP ${answer.status} without data (${operationName(document)})`, undefined, undefined);
    return body.data as T;
  }

  /** Runs `mutation(input: $input) { id }` and answers the id of what it made. */
  async create(mutation: string, inputType: string, input: Record<string, unknown>): Promise<string> {
    const document = `mutation DemoCreate($input: ${inputType}!) { ${mutation}(input: $input) { id } }`;
    return (await this.request<Record<string, { id: string }>>(document, { input }))[mutation].id;
  }

  /**
   * Every item of a list query (`members`, `tiers`, ...), reading its pages of 100 one after another;
   * `args` are the query's other arguments, written as GraphQL (`includeInActive: true`).
   */
  async listAll<T>(field: string, selection: string, args = ''): Promise<T[]> {
    const document = `query DemoList($page: Int!) { ${field}(page: $page, limit: 100${args ? `, ${args}` : ''}) { meta { totalPages } data { ${selection} } } }`;
    const items: T[] = [];
    for (let page = 1; ; page++) {
      const answer = (await this.request<Record<string, ListPage<T>>>(document, { page }))[field];
      items.push(...answer.data);
      if (page >= answer.meta.totalPages) return items;
    }
  }
}

function parseBody(text: string, status: number): { data?: unknown; errors?: GraphqlError[] } {
  try {
    return JSON.parse(text);
  } catch {
    throw new DemoApiError(`HTTP ${status}: ${text.slice(0, 200)}`, undefined, undefined);
  }
}

/** The first field of a document, to name it in errors. */
const operationName = (document: string) => /\{\s*(\w+)/.exec(document)?.[1] ?? 'operation';

/** One page of a list query: `meta` and `data` as every list of the platform answers them. */
interface ListPage<T> {
  meta: { totalPages: number };
  data: T[];
}
