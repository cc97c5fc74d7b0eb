// Behind a proxy: HTTPS_PROXY, HTTP_PROXY and NO_PROXY (either case) carry every request of a
// command through a real logging proxy on loopback (test/helpers/proxy.ts), with the same answers
// as direct; NO_PROXY goes around it; a proxy that refuses or is down is one line naming it (its
// credentials masked), exit 7, with advice about the proxy, not the service.
import net, { type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { FakeClock, runLine } from '../helpers/context.js';
import { deadPort, startProxy, type LoggingProxy } from '../helpers/proxy.js';
import { launchAgent, type TestService } from '../helpers/service.js';
import { perTest } from '../helpers/service-support.js';
import { HAS_OPENSSL, NEEDS_OPENSSL, httpsService, makeCerts } from '../helpers/tls.js';

const each = perTest();

async function proxy(opts: Parameters<typeof startProxy>[0] = {}): Promise<LoggingProxy> {
  const p = await startProxy(opts);
  each.closeAfter(p);
  return p;
}

/** The requests the proxy carried, as `METHOD /path` (the service's exchanges have no query either). */
const carried = (p: LoggingProxy) => p.log.map((l) => l.line.replace(/ http:\/\/[^/]+/, ' ').replace(/\?.*$/, ''));
const answered = (svc: TestService) => svc.cliRequests().map((r) => `${r.method} ${r.path}`);

describe('HTTP_PROXY / HTTPS_PROXY', () => {
  it.each(['HTTP_PROXY', 'http_proxy'])('%s: all of launch, list, get and chat goes through it', async (v) => {
    const svc = await each.service();
    const p = await proxy();
    const env = { [v]: p.url };
    for (const line of ['launch --name via-proxy --json', 'list', 'get via-proxy --json', 'chat via-proxy hello']) {
      const r = await runLine(svc, line, { env });
      expect(r.code, `${line}: ${r.stderr}`).toBe(0);
    }
    const sent = answered(svc);
    expect(sent.length).toBeGreaterThanOrEqual(4);
    expect(carried(p)).toEqual(sent);
  });

  it('the same answer as direct: get --json', async () => {
    const svc = await each.service();
    await launchAgent(svc, { name: 'same' });
    const direct = await runLine(svc, 'get same --json');
    const p = await proxy();
    const through = await runLine(svc, 'get same --json', { env: { HTTPS_PROXY: p.url, HTTP_PROXY: p.url } });
    expect(through).toEqual(direct);
    expect(p.log.length).toBeGreaterThan(0);
  });

  it('a chat reply is streamed through it: the first piece printed before the service sent the rest', async () => {
    const svc = await each.service({ tokenDelayMs: 20 });
    const { agent_id: id } = await launchAgent(svc, { name: 'slow' });
    const p = await proxy();
    const chats = () => svc.exchanges.filter((e) => e.method === 'POST' && e.path === `/v1/superagents/${id}/chat`);
    let doneAtFirst: number | undefined;
    const r = await runLine(svc, 'chat slow walk me through the market', {
      env: { HTTP_PROXY: p.url },
      onStdout: () => (doneAtFirst ??= chats().length),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(doneAtFirst).toBe(0);
    expect(chats()).toHaveLength(1);
    expect(carried(p)).toContain(`POST /v1/superagents/${id}/chat`);
  });

  it('its credentials are sent to it, and masked in --debug and in whoami', async () => {
    const svc = await each.service();
    const p = await proxy({ credentials: 'alice:s3cret-pw' });
    const withCreds = p.url.replace('http://', 'http://alice:s3cret-pw@');
    const env = { HTTP_PROXY: withCreds };
    const debug = await runLine(svc, 'list --debug', { env });
    expect(debug.code, debug.stderr).toBe(0);
    expect(p.log.map((l) => l.credentials)).toEqual(['alice:s3cret-pw']);
    const who = await runLine(svc, 'whoami', { env });
    expect(who.code, who.stderr).toBe(0);
    for (const r of [debug, who]) expect(`${r.stdout}${r.stderr}`).not.toContain('s3cret-pw');
    expect(debug.stderr).toContain(`through the proxy ${p.url.replace('http://', 'http://…@')}`);
    expect(who.stdout).toContain(p.url.replace('http://', 'http://…@'));
  });
});

describe('a proxy URL with a path and a query', () => {
  it('is shown without them, as without its credentials: in --debug and in errors', async () => {
    const svc = await each.service();
    const p = await proxy({ refuse: 502 });
    const env = { HTTP_PROXY: `${p.url.replace('http://', 'http://u:pw@')}/some/path?token=s3cret` };
    const r = await runLine(svc, 'list --debug', { env, clock: new FakeClock() });
    expect(r.code).toBe(7);
    expect(r.stderr).not.toMatch(/s3cret|some\/path|:pw@/);
    const shown = `${p.url.replace('http://', 'http://…@')}/…`;
    expect(r.stderr).toContain(`requests go through the proxy ${shown}\n`);
    expect(r.stderr).toContain(`through the proxy ${shown}: it answered 502`);
  });
});

describe('the embedded local service (in this process, on loopback)', () => {
  it('is reached direct, whatever the proxy variables say', async () => {
    const p = await proxy({ refuse: 502 });
    const env = { SUPERAGENT_DATA_DIR: each.scratch('superagent-embedded-'), HTTP_PROXY: p.url, HTTPS_PROXY: p.url };
    const r = await runLine(undefined, 'list --json', { env });
    expect(r.code, r.stderr).toBe(0);
    expect(p.log).toEqual([]);
  });
});

describe('the value of a proxy variable', () => {
  it('host:port without a scheme is taken as http:// (as curl does)', async () => {
    const svc = await each.service();
    const p = await proxy();
    const r = await runLine(svc, 'list', { env: { HTTP_PROXY: p.url.replace('http://', '') } });
    expect(r.code, r.stderr).toBe(0);
    expect(p.log).toHaveLength(1);
  });

  it('not a URL: exit 2 before any request, naming the variable, its credentials masked', async () => {
    const svc = await each.service();
    const r = await runLine(svc, 'list', { env: { http_proxy: 'http://eve:pw-secret@[::1' }, clock: new FakeClock() });
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toBe(
      "Error: http_proxy is not a proxy URL: 'http://…@[::1' " +
        '(set it like http://proxy.example.com:3128, with user:password@ before the host if the proxy asks for them)\n',
    );
  });
});

describe('the value of a proxy variable, refused before any request (exit 2)', () => {
  async function refused(env: Record<string, string>) {
    const svc = await each.service();
    const r = await runLine(svc, 'list', { env, clock: new FakeClock() });
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(svc.cliRequests()).toEqual([]);
    return r.stderr;
  }

  it('a socks proxy: not supported, in one line (no Node warning), its credentials masked', async () => {
    const stderr = await refused({ HTTP_PROXY: 'socks5://u:s3cret@127.0.0.1:1080' });
    expect(stderr).toBe(
      "Error: HTTP_PROXY is a socks proxy ('socks5://…@127.0.0.1:1080'): socks proxies are not supported " +
        "(use an http:// proxy, or list the service's host in NO_PROXY to go without it)\n",
    );
  });

  it('a value that is no URL is shown as written, not with the http:// taken for granted', async () => {
    expect(await refused({ HTTPS_PROXY: '::::', HTTP_PROXY: '::::' })).toMatch(
      /^Error: HTTP_PROXY is not a proxy URL: '::::' /,
    );
  });
});

describe('NO_PROXY', () => {
  it.each([
    ['the host', 'NO_PROXY', '127.0.0.1'],
    ['the host and its port', 'no_proxy', '127.0.0.1:PORT'],
    ['a suffix of the host', 'NO_PROXY', 'example.test,.0.0.1'],
    ['*', 'NO_PROXY', '*'],
  ])('%s: the request goes direct', async (_, name, value) => {
    const svc = await each.service();
    const p = await proxy();
    const port = new URL(svc.url).port;
    const r = await runLine(svc, 'list', { env: { HTTP_PROXY: p.url, [name]: value.replace('PORT', port) } });
    expect(r.code, r.stderr).toBe(0);
    expect(p.log).toEqual([]);
  });

  it('another host, or another port of it: the proxy is used (loopback gets no exception of its own)', async () => {
    const svc = await each.service();
    const p = await proxy();
    const r = await runLine(svc, 'list', { env: { HTTP_PROXY: p.url, NO_PROXY: 'example.test, 127.0.0.1:1' } });
    expect(r.code, r.stderr).toBe(0);
    expect(p.log).toHaveLength(1);
  });
});

describe('a proxy that refuses or is down: one line naming it, exit 7, advice about the proxy', () => {
  const line = (svc: TestService, proxyShown: string, what: string, fix: string) =>
    `Error: cannot reach ${svc.url}/v1/superagents through the proxy ${proxyShown}: ${what} (${fix}; ` +
    "or list the service's host in NO_PROXY to go without it)\n";
  const CHECK = 'check the proxy in HTTP_PROXY: its address, and that it is running and lets this request through';

  it('down (connection refused): its credentials masked; retried as a refused connection is', async () => {
    const svc = await each.service();
    const port = await deadPort();
    const clock = new FakeClock();
    const r = await runLine(svc, 'list', { env: { HTTP_PROXY: `http://bob:hunter22@127.0.0.1:${port}` }, clock });
    expect(r).toMatchObject({ code: 7, stdout: '' });
    expect(r.stderr).toBe(line(svc, `http://…@127.0.0.1:${port}`, 'connection refused', CHECK));
    expect(answered(svc)).toEqual([]);
  });

  it('407 (credentials wanted): said so, not retried', async () => {
    const svc = await each.service();
    const p = await proxy({ credentials: 'alice:right' });
    const clock = new FakeClock();
    const r = await runLine(svc, 'list', { env: { HTTP_PROXY: p.url }, clock });
    expect(r).toMatchObject({ code: 7, stdout: '' });
    const fix = "put the proxy's user name and password in HTTP_PROXY, before its host (user:password@host:port)";
    expect(r.stderr).toBe(line(svc, p.url, 'it asks for credentials (407)', fix));
    expect([p.log.length, clock.slept]).toEqual([1, []]);
  });

  it('407 to the credentials its URL gives: they are said to be refused, not missing', async () => {
    const svc = await each.service();
    const p = await proxy({ credentials: 'alice:right' });
    const env = { HTTP_PROXY: p.url.replace('http://', 'http://alice:wrong@') };
    const r = await runLine(svc, 'list', { env, clock: new FakeClock() });
    expect(r).toMatchObject({ code: 7, stdout: '' });
    const [shown, fix] = [p.url.replace('http://', 'http://…@'), 'check the user name and password in HTTP_PROXY'];
    expect(r.stderr).toBe(line(svc, shown, 'it refused the credentials given in HTTP_PROXY (407)', fix));
  });

  it("502 from the proxy itself (its own page, not the service's JSON): named as the proxy's", async () => {
    const svc = await each.service();
    const p = await proxy({ refuse: 502 });
    const r = await runLine(svc, 'list', { env: { HTTP_PROXY: p.url }, clock: new FakeClock() });
    expect(r).toMatchObject({ code: 7, stdout: '' });
    expect(r.stderr).toBe(line(svc, p.url, 'it answered 502 instead of carrying the request', CHECK));
    expect(answered(svc)).toEqual([]);
  });
});

describe.skipIf(!HAS_OPENSSL)(`HTTPS through a CONNECT tunnel${NEEDS_OPENSSL}`, () => {
  const certs = HAS_OPENSSL ? makeCerts() : undefined;
  const KEY = 'sa_sk_' + 'T'.repeat(32);
  const serve = async () => {
    const json = { 'content-type': 'application/json' };
    const s = await httpsService(certs!.good, (_req, res) => res.writeHead(200, json).end('{"agents":[]}'));
    each.closeAfter(s);
    return s;
  };

  it('carried: the tunnel is to the service, its certificate checked as direct', async () => {
    const s = await serve();
    const p = await proxy();
    const env = { HTTPS_PROXY: p.url, NODE_EXTRA_CA_CERTS: certs!.caFile };
    const r = await runLine({ url: s.url, key: KEY }, 'list --json', { env });
    // the CA file is read by Node at start-up only: this process does not trust it, and says so in the same words
    expect(r.code).toBe(7);
    expect(r.stderr).toContain(`cannot connect securely to ${s.url}/v1/superagents: its certificate is not trusted`);
    expect(p.log.map((l) => l.line)).toEqual([`CONNECT ${new URL(s.url).host}`]);
  });

  it('a proxy that resets the connection is blamed, not the scheme of the base URL (no probe around it)', async () => {
    const s = await serve();
    const resetting = net.createServer((socket) => socket.resetAndDestroy());
    await new Promise<void>((resolve) => resetting.listen(0, '127.0.0.1', resolve));
    each.closeAfter({ close: () => new Promise<void>((resolve) => resetting.close(() => resolve())) });
    const proxyUrl = `http://127.0.0.1:${(resetting.address() as AddressInfo).port}`;
    // http:// at the HTTPS port: direct, the CLI would say the port speaks HTTPS
    const base = s.url.replace('https://', 'http://');
    const r = await runLine({ url: base, key: KEY }, 'list', { env: { HTTP_PROXY: proxyUrl }, clock: new FakeClock() });
    expect(r).toMatchObject({ code: 7, stdout: '' });
    const said = `Error: cannot reach ${base}/v1/superagents through the proxy ${proxyUrl}: connection reset`;
    expect(r.stderr.startsWith(said), r.stderr).toBe(true);
    expect(s.connections()).toBe(0);
  });

  it('a CONNECT refused (502): one line naming the proxy, exit 7', async () => {
    const s = await serve();
    const p = await proxy({ refuse: 502 });
    const r = await runLine({ url: s.url, key: KEY }, 'list', { env: { HTTPS_PROXY: p.url }, clock: new FakeClock() });
    expect(r).toMatchObject({ code: 7, stdout: '' });
    expect(r.stderr).toBe(
      `Error: cannot reach ${s.url}/v1/superagents through the proxy ${p.url}: ` +
        'it answered 502 instead of carrying the request ' +
        '(check the proxy in HTTPS_PROXY: its address, and that it is running and lets this request through; ' +
        "or list the service's host in NO_PROXY to go without it)\n",
    );
    expect(s.connections()).toBe(0);
  });
});
