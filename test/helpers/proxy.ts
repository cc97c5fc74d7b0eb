// A forward proxy on loopback that logs what it carries: absolute-URL requests (plain http://) are
// forwarded, CONNECT (https://) becomes a tunnel. `refuse` makes it answer every request with that
// status instead (407, 502); `credentials` (user:password) makes it ask for them (407) when missing.
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';

export interface ProxyLog {
  /** `GET http://127.0.0.1:1234/v1/…` for a forwarded request, `CONNECT 127.0.0.1:1234` for a tunnel */
  line: string;
  /** the Proxy-Authorization it came with, decoded (`user:password`) */
  credentials?: string;
}

export interface LoggingProxy {
  /** http://127.0.0.1:port */
  url: string;
  log: ProxyLog[];
  close(): Promise<void>;
}

export interface ProxyOptions {
  refuse?: number;
  credentials?: string;
}

function credentialsOf(req: http.IncomingMessage): string | undefined {
  const value = req.headers['proxy-authorization'];
  const basic = typeof value === 'string' ? /^Basic (.+)$/i.exec(value)?.[1] : undefined;
  return basic === undefined ? undefined : Buffer.from(basic, 'base64').toString('utf8');
}

export async function startProxy(opts: ProxyOptions = {}): Promise<LoggingProxy> {
  const log: ProxyLog[] = [];
  const sockets = new Set<net.Socket>();
  /** the status to answer in the service's place, if any */
  const refusal = (req: http.IncomingMessage): number | undefined => {
    const credentials = credentialsOf(req);
    log.push({ line: `${req.method} ${req.url}`, credentials });
    if (opts.refuse) return opts.refuse;
    if (opts.credentials !== undefined && credentials !== opts.credentials) return 407;
    return undefined;
  };
  const server = http.createServer((req, res) => {
    const status = refusal(req);
    if (status) return void res.writeHead(status, { 'content-type': 'text/html' }).end('<h1>proxy says no</h1>');
    const target = new URL(req.url ?? '');
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const upstream = http.request(target, { method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res); // as it arrives: a stream stays a stream
      answer.once('close', () => answer.complete || res.destroy()); // and one cut short is cut here too
    });
    upstream.once('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    client.once('error', () => client.destroy());
    const status = refusal(req);
    if (status) return void client.end(`HTTP/1.1 ${status} No\r\nContent-Length: 0\r\n\r\n`);
    const [host, port] = (req.url ?? '').split(':');
    const upstream = net.connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client).pipe(upstream);
    });
    sockets.add(upstream);
    upstream.once('error', () => client.destroy());
    upstream.once('close', () => client.destroy());
  });
  server.on('connection', (s: net.Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A loopback port nothing listens on: a proxy that is down. */
export async function deadPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

/** A "proxy" that accepts connections and says nothing (one that blackholes), or answers `garbage` to each. */
export async function rawProxy(garbage?: string): Promise<LoggingProxy> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => {
    sockets.add(s);
    s.once('error', () => s.destroy());
    s.once('close', () => sockets.delete(s));
    if (garbage !== undefined) s.once('data', () => s.end(garbage));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    log: [],
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
