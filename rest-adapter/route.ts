import { Request, Response } from 'express';
import { IncomingHttpHeaders } from 'node:http';
import { Envelope } from './envelope';
import { UploadField, Uploads } from './uploads';

/** What a route's variable builder sees of the request. */
export interface RouteInput {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: Record<string, unknown>;
  cookies: Record<string, string | undefined>;
  headers: IncomingHttpHeaders;
  uploads: Uploads;
}

/** One documented REST path: how it becomes a gateway operation, and how the answer is enveloped. */
export interface Route {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  /** Name of the operation in rest-adapter/operations. */
  operation: string;
  variables?: (input: RouteInput) => Record<string, unknown>;
  envelope: Envelope;
  /** `data.message` of the nested and message envelopes; the top-level `message` of dataWithMessage. */
  message?: string;
  /** Success status; 200 unless given. */
  status?: number;
  /** The payload from the operation's data; its first root field unless given. */
  payload?: (data: Record<string, any>, input: RouteInput) => unknown;
  /** Anything to do to the response besides the body (cookies). */
  after?: (res: Response, payload: any, req: Request) => void;
  upload?: UploadField[];
  /** Needs no Bearer token (login, refresh, password reset, key exchange, consent reads). */
  public?: boolean;
}
