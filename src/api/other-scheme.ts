// A base URL whose scheme is not what its port speaks: https:// at a plain HTTP port (the handshake
// meets an HTTP answer: OpenSSL's "wrong version number") or http:// at an HTTPS port (the server
// drops the request, or answers it with a TLS alert). Either failure has other causes too, so the
// port is asked once in the other protocol before the failure is said as such, with the URL to use;
// it is the same on every attempt, so it is not retried.
import net from 'node:net';
import { maskUrl } from '../core/mask.js';
import { ConnectionError } from './errors.js';
import { ProxyFailure } from './proxy.js';

/** The other protocol's answer may take this long at most (a loopback or LAN one comes at once). */
const PROBE_MS = 3_000;

/** The base URL speaks the other scheme: a failure that says so, never retried. */
export class OtherSchemeError extends ConnectionError {}

interface FailureFields {
  code?: string;
  message?: string;
  /** for an answer Node's HTTP parser refused: the bytes it got */
  rawPacket?: Buffer;
}

/** The error to report if `err`, met at `base`, comes from the other scheme spoken there; else undefined. */
export async function otherScheme(err: unknown, base: URL, timeoutMs: number): Promise<OtherSchemeError | undefined> {
  // the proxy's failure says nothing of the base URL's port, and a probe would go around the proxy
  if (err instanceof ProxyFailure) return undefined;
  const e = (err ?? {}) as FailureFields;
  const wait = Math.min(PROBE_MS, timeoutMs);
  if (base.protocol === 'https:' && looksLikePlainAnswer(e) && (await speaksHttp(base, wait))) {
    return wrongScheme(base, 'plain HTTP', 'HTTPS', 'http:');
  }
  if (base.protocol === 'http:' && looksLikeTls(e) && (await speaksTls(base, wait))) {
    return wrongScheme(base, 'HTTPS', 'plain HTTP', 'https:');
  }
  return undefined;
}

function wrongScheme(base: URL, speaks: string, not: string, scheme: 'http:' | 'https:'): OtherSchemeError {
  const given = maskUrl(base.href.replace(/\/$/, ''));
  const use = maskUrl(withScheme(base, scheme));
  // a key sent over plain HTTP to another machine can be read on the way
  const remote =
    scheme === 'http:' && !isLoopback(base.hostname) ? ' (the key then crosses the network unencrypted)' : '';
  return new OtherSchemeError(
    `the service at ${given} speaks ${speaks}, not ${not}`,
    `use ${use} as the base URL${remote}`,
  );
}

/** The handshake met bytes that are no TLS record (an HTTP answer, most often). */
function looksLikePlainAnswer(e: FailureFields): boolean {
  return (
    e.code === 'ERR_SSL_WRONG_VERSION_NUMBER' || (e.code === 'EPROTO' && /wrong version number/i.test(e.message ?? ''))
  );
}

/** The request was dropped unanswered, or answered with a TLS record (0x15 alert, 0x16 handshake). */
function looksLikeTls(e: FailureFields): boolean {
  if (e.code === 'ECONNRESET' || e.code === 'EPIPE') return true;
  const raw = e.rawPacket;
  return Buffer.isBuffer(raw) && raw.length >= 2 && (raw[0] === 0x15 || raw[0] === 0x16) && raw[1] === 0x03;
}

/** The same base URL in the other scheme, its port kept (the old scheme's default written out). */
function withScheme(base: URL, scheme: 'http:' | 'https:'): string {
  const url = new URL(base.href);
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  url.protocol = scheme;
  url.port = port;
  return url.href.replace(/\/$/, '');
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '[::1]' || /^127\./.test(host);
}

function target(base: URL): { host: string; port: number } {
  const host = base.hostname.replace(/^\[|\]$/g, '');
  return { host, port: Number(base.port || (base.protocol === 'https:' ? 443 : 80)) };
}

/** Whether the port answers a plain HTTP request with an HTTP status line. */
function speaksHttp(base: URL, wait: number): Promise<boolean> {
  return new Promise((resolve) => {
    const { host, port } = target(base);
    const socket = net.connect({ host, port });
    let got = '';
    const done = (yes: boolean) => {
      socket.destroy();
      resolve(yes);
    };
    socket.setTimeout(wait, () => done(false));
    socket.on('connect', () => socket.write(`HEAD / HTTP/1.1\r\nHost: ${base.host}\r\nConnection: close\r\n\r\n`));
    socket.on('data', (chunk: Buffer) => {
      got += chunk.toString('latin1');
      if (got.length >= 12) done(/^HTTP\/1\.[01] \d{3}/.test(got));
    });
    socket.on('end', () => done(/^HTTP\/1\.[01] \d{3}/.test(got)));
    socket.on('error', () => done(false));
  });
}

/** Whether the port completes a TLS handshake (its certificate not judged: only the protocol is asked). */
async function speaksTls(base: URL, wait: number): Promise<boolean> {
  const tls = await import('node:tls'); // not loaded for plain http otherwise (transport.ts)
  return new Promise((resolve) => {
    const { host, port } = target(base);
    const servername = net.isIP(host) ? undefined : host;
    const socket = tls.connect({ host, port, servername, rejectUnauthorized: false });
    const done = (yes: boolean) => {
      socket.destroy();
      resolve(yes);
    };
    socket.setTimeout(wait, () => done(false));
    socket.on('secureConnect', () => done(true));
    socket.on('error', () => done(false));
    socket.on('close', () => done(false));
  });
}
