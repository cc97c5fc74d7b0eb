// HTTP/1.1 over Node's own http and https modules, with one keep-alive agent per client. Not undici:
// loading it costs ~20 ms (its public entry ~60 ms), and the background tier-up of its WebAssembly
// parser holds the process ~100 ms after the last request unless a process-wide V8 flag is set
// (measured before the switch: bench/README.md). node:http has neither cost; what undici added here
// (pooling, time-outs, abort) is a few lines.
import type { Agent, IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { ANSWER_LIMITS } from '../contract.js';
import { answerTooLarge } from './answer-checks.js';

export type Headers = IncomingHttpHeaders;

/** The most calls in flight at once: an account holds 10 agents at most, so the kill switch sends all. */
export const AT_ONCE = 10;

export interface TransportRequest {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
}

export interface TransportResponse {
  status: number;
  headers: Headers;
  /** the body as it arrives; destroy() drops the rest */
  body: IncomingMessage;
}

/** The whole body as UTF-8 text; one larger than `maxBytes` is dropped there (the connection with it). */
export async function bodyText(body: AsyncIterable<Uint8Array | string>, maxBytes = ANSWER_LIMITS.jsonBytes): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    size += buf.length;
    if (size > maxBytes) throw answerTooLarge(maxBytes); // leaving the loop destroys the body
    chunks.push(buf);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export class Transport {
  private agent: Agent | undefined;
  private readonly https: boolean;

  constructor(origin: URL) {
    this.https = origin.protocol === 'https:';
  }

  private async module(): Promise<typeof import('node:http')> {
    // https (and TLS) only for https URLs: the embedded service is plain http on loopback
    return this.https ? ((await import('node:https')) as unknown as typeof import('node:http')) : import('node:http');
  }

  async request(req: TransportRequest): Promise<TransportResponse> {
    const http = await this.module();
    // as many sockets as calls sent at once (together.ts): the kill switch's pauses all go out at once
    this.agent ??= new http.Agent({ keepAlive: true, maxSockets: AT_ONCE, keepAliveMsecs: 4_000 });
    const agent = this.agent;
    return new Promise<TransportResponse>((resolve, reject) => {
      const r = http.request(req.url, { method: req.method, headers: req.headers, agent, signal: req.signal }, (res) => {
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: res });
      });
      r.once('error', reject);
      r.end(req.body);
    });
  }

  /** Closes every connection, so the process can exit. */
  close(): void {
    this.agent?.destroy();
    this.agent = undefined;
  }
}
