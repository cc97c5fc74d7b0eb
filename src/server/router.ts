// A route table: `/v1/superagents/:id/pause` patterns compiled once, matched by method and path.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiError } from './http.js';
import type { Service } from './service.js';

export interface RouteContext {
  req: IncomingMessage;
  res: ServerResponse;
  /** the request's JSON object (`{}` when it sent none) */
  body: Record<string, unknown>;
  /** a JSON array body, on a route that takes one (`batches`); `body` is then `{}` */
  batch?: unknown[];
  params: Record<string, string>;
  query: URLSearchParams;
  /** the caller's account (derived from the key hash) */
  account: string;
  service: Service;
  /** an injected fault this (streaming) request drew: it fails in-band once the stream has begun */
  fault?: ApiError;
}

export type Handler = (ctx: RouteContext) => Promise<void>;

export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  handler: Handler;
  /** may answer with a stream (`stream: true` in the body), so an injected fault can fail in-band */
  streams?: boolean;
  /** answers without a key: the simulated chains stand for public sources */
  public?: boolean;
  /** also takes a JSON array body (a JSON-RPC batch), given as `batch` */
  batches?: boolean;
}

interface CompiledRoute extends Route {
  regex: RegExp;
  names: string[];
}

export class Router {
  private readonly routes: CompiledRoute[] = [];

  add(routes: Route[]): this {
    for (const route of routes) {
      const names: string[] = [];
      const source = route.path.replace(/:(\w+)/g, (_, name: string) => {
        names.push(name);
        return '([^/]+)';
      });
      this.routes.push({ ...route, regex: new RegExp(`^${source}/?$`), names });
    }
    return this;
  }

  match(
    method: string,
    path: string,
  ): { handler: Handler; streams: boolean; public: boolean; batches: boolean; params: Record<string, string> } | null {
    for (const route of this.routes) {
      if (route.method !== method) continue;
      const m = route.regex.exec(path);
      if (!m) continue;
      const params: Record<string, string> = {};
      route.names.forEach((name, i) => {
        params[name] = safeDecode(m[i + 1]!);
      });
      const { handler, streams, batches } = route;
      return { handler, streams: streams === true, public: route.public === true, batches: batches === true, params };
    }
    return null;
  }
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
