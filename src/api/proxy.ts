// Which proxy carries a request: HTTPS_PROXY, HTTP_PROXY and NO_PROXY, either case (the lower-case
// one first), read exactly as undici's EnvHttpProxyAgent reads them, so that undici (its load, its
// WebAssembly parser) is loaded only when a proxy applies. NO_PROXY lists hosts (a leading `.` or
// `*.` is the domain, a host matches its subdomains too), optionally `:port`, or is `*` for all;
// loopback gets no exception of its own, as in undici. The failures that are the proxy's, in words
// that name it (its credentials masked) and send the user to it, not to the service.
import { UsageError } from '../core/errors.js';
import { maskUrl } from '../core/mask.js';

export type Env = Readonly<Record<string, string | undefined>>;

/** What EnvHttpProxyAgent is given: the variables' values, '' for one unset (it then reads no process.env). */
export interface ProxySettings {
  httpProxy: string;
  httpsProxy: string;
  noProxy: string;
  /** the proxy variables' names as set (`https_proxy`), for what is said about them */
  names: { http: string; https: string };
  /** their values as written (before an http:// taken for granted), for the same */
  written: { http: string; https: string };
}

/** The variable of that name, lower case first (its name as set, and its value, '' for none). */
function variable(env: Env, name: string): { value: string; name: string } {
  const lower = name.toLowerCase();
  const found = env[lower] !== undefined ? lower : name;
  return { value: env[found] ?? '', name: found };
}

/** A proxy's variable: `host:port` without a scheme is http (as curl takes it). */
function proxyVariable(env: Env, name: string): { value: string; name: string; written: string } {
  const { value, name: found } = variable(env, name);
  return { value: value === '' || value.includes('://') ? value : `http://${value}`, name: found, written: value };
}

export function proxySettings(env: Env): ProxySettings {
  const http = proxyVariable(env, 'HTTP_PROXY');
  const https = proxyVariable(env, 'HTTPS_PROXY');
  const names = { http: http.name, https: https.name };
  const written = { http: http.written, https: https.written };
  return { httpProxy: http.value, httpsProxy: https.value, noProxy: variable(env, 'NO_PROXY').value, names, written };
}

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

/** The proxy `url` goes through, as written in its variable, or undefined for a direct request. */
export function proxyFor(url: URL, s: ProxySettings): Via | undefined {
  // an https URL falls back on the http proxy when HTTPS_PROXY is not set (as in undici)
  const https = url.protocol === 'https:' && s.httpsProxy !== '';
  const proxy = https ? s.httpsProxy : s.httpProxy;
  if (!proxy || bypassed(url, s.noProxy)) return undefined;
  const written = https ? s.written.https : s.written.http;
  return { proxy, variable: https ? s.names.https : s.names.http, ...(written !== proxy && { written }) };
}

/** A proxy value undici cannot use, as the usage error to stop at before any request (exit 2). */
export function unusableProxy(via: Via): UsageError | undefined {
  const shown = maskProxy(via.written ?? via.proxy);
  let scheme = '';
  try {
    scheme = new URL(via.proxy).protocol;
  } catch {
    // said below
  }
  if (/^https?:$/.test(scheme)) return undefined;
  // undici's socks support is experimental (Node warns on stderr, its failures are its own): refused
  if (/^socks/.test(scheme)) {
    const what = `${via.variable} is a socks proxy ('${shown}'): socks proxies are not supported`;
    return new UsageError(what, "use an http:// proxy, or list the service's host in NO_PROXY to go without it");
  }
  const like = 'set it like http://proxy.example.com:3128';
  const hint = `${like}, with user:password@ before the host if the proxy asks for them`;
  return new UsageError(`${via.variable} is not a proxy URL: '${shown}'`, hint);
}

/** The proxy a request to `url` goes through, as written; undefined for none (or a base URL that is no URL). */
export function proxyOf(url: string | null, env: Env): Via | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url ?? '');
  } catch {
    return undefined;
  }
  return proxyFor(parsed, proxySettings(env));
}

/** The name of a proxy variable that is set (HTTPS_PROXY first, as set: `https_proxy`), or undefined. */
export function proxyVariableSet(env: Env): string | undefined {
  const { httpProxy, httpsProxy, names } = proxySettings(env);
  return httpsProxy ? names.https : httpProxy ? names.http : undefined;
}

/** The same, its credentials masked; null for none (whoami, --debug). */
export function proxyShown(url: string | null, env: Env): string | null {
  const via = proxyOf(url, env);
  return via ? maskProxy(via.proxy) : null;
}

/** A proxy's URL as undici takes it: no path or query (which it refuses, and curl ignores). */
export function proxyOrigin(url: string): string {
  try {
    const parsed = new URL(url);
    if (url === '' || (parsed.pathname === '/' && !parsed.search && !parsed.hash)) return url;
    const at = parsed.username || parsed.password ? `${parsed.username}:${parsed.password}@` : '';
    return `${parsed.protocol}//${at}${parsed.host}`;
  } catch {
    return url;
  }
}

/**
 * A proxy's URL as shown: its credentials masked, and its path and query too (a token may travel
 * there): `http://…@proxy.example.com:3128/…`.
 */
export function maskProxy(url: string): string {
  const masked = maskUrl(url);
  const [, origin, rest] = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)(.*)$/is.exec(masked) ?? [];
  if (origin === undefined) return masked;
  return rest === '' || rest === '/' ? masked : `${origin}/…`;
}

function bypassed(url: URL, noProxy: string): boolean {
  // the host with its brackets (IPv6), without the port
  const host = url.host.replace(/:\d*$/, '').toLowerCase();
  const port = Number.parseInt(url.port, 10) || DEFAULT_PORTS[url.protocol] || 0;
  const entries = noProxy.split(/[,\s]/).filter(Boolean);
  if (entries.length === 0) return false;
  if (noProxy === '*') return true;
  return entries.some((entry) => {
    const parsed = /^(.+):(\d+)$/.exec(entry);
    const name = (parsed ? parsed[1]! : entry).replace(/^\*?\./, '').toLowerCase();
    if (parsed && Number.parseInt(parsed[2]!, 10) !== port) return false;
    return host === name || host.endsWith(`.${name}`);
  });
}

/** A request the proxy refused or could not carry: connection_failure.ts says it, naming the proxy. */
export class ProxyFailure extends Error {
  constructor(
    /** the proxy's URL, credentials masked */
    readonly proxy: string,
    readonly variable: string,
    /** what happened, after "through the proxy …: " */
    readonly what: string,
    readonly code: string,
    /** the same again on another attempt (credentials refused): not retried */
    readonly lasting = false,
    /** what to do about it (by default: check the proxy) */
    private readonly fix?: string,
  ) {
    super(what);
  }

  get hint(): string {
    const check =
      `check the proxy in ${this.variable}: its address, ` + `and that it is running and lets this request through`;
    return `${this.fix ?? check}; or list the service's host in NO_PROXY to go without it`;
  }
}

/** Failures at the connection itself: the only connection made is to the proxy. */
const CONNECTING = new Map([
  ['ECONNREFUSED', 'connection refused'],
  ['ENOTFOUND', 'host not found'],
  ['EAI_AGAIN', 'host not found'],
  ['ECONNRESET', 'connection reset'],
  ['EHOSTUNREACH', 'host unreachable'],
  ['ETIMEDOUT', 'connection timed out'],
  ['UND_ERR_CONNECT_TIMEOUT', 'connection timed out'],
]);

export interface Via {
  /** the proxy's URL: as written in `variable`, with http:// before a bare host:port */
  proxy: string;
  variable: string;
  /** the value as written, when http:// was put before it */
  written?: string;
}

/** The proxy's part in `err`, met on a request through it; undefined when not the proxy's (TLS, a time-out). */
export function proxyFailure(err: unknown, via: Via): ProxyFailure | undefined {
  const e = (err ?? {}) as { code?: string; name?: string; message?: string; cause?: { code?: string } };
  const code = e.code ?? e.cause?.code ?? '';
  const words = CONNECTING.get(code) ?? CONNECTING.get(e.cause?.code ?? '');
  if (words) return new ProxyFailure(maskProxy(via.proxy), via.variable, words, code);
  // the only HTTP parsed before an answer is the proxy's (a tunnel's answer is read through TLS)
  if (e.name === 'HTTPParserError' || code.startsWith('HPE_')) {
    const what = 'it answered something that is not HTTP';
    return new ProxyFailure(maskProxy(via.proxy), via.variable, what, 'PROXY_NOT_HTTP');
  }
  // a CONNECT answered other than 200 (undici's words), or a 407 to a plain request
  const message = e.message ?? '';
  const status = Number(/Proxy response \((\d+)\)/.exec(message)?.[1] ?? /\((407)\)/.exec(message)?.[1]);
  if (status) return proxyAnswered(via.proxy, via.variable, status);
  return undefined;
}

/** The proxy (as written in `variable`) answered `status` in the service's place. */
export function proxyAnswered(written: string, variable: string, status: number): ProxyFailure {
  const proxy = maskProxy(written);
  if (status === 407) {
    if (hasCredentials(written)) {
      const what = `it refused the credentials given in ${variable} (407)`;
      return new ProxyFailure(
        proxy,
        variable,
        what,
        'PROXY_407',
        true,
        `check the user name and password in ${variable}`,
      );
    }
    const put = `put the proxy's user name and password in ${variable}, before its host (user:password@host:port)`;
    return new ProxyFailure(proxy, variable, 'it asks for credentials (407)', 'PROXY_407', true, put);
  }
  return new ProxyFailure(proxy, variable, `it answered ${status} instead of carrying the request`, `PROXY_${status}`);
}

function hasCredentials(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.username !== '' || parsed.password !== '';
  } catch {
    return false;
  }
}
