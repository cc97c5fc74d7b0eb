// Behind a proxy, as a user sets it: HTTP_PROXY / HTTPS_PROXY in the built binary's environment,
// a logging proxy on loopback (test/helpers/proxy.ts). Every request of `get --json` goes through it;
// without a proxy variable undici is not even loaded (an import log preloaded with --import says so);
// a dead proxy is one line naming it, its password masked, exit 7; HTTPS goes through a CONNECT
// tunnel with the certificate checked as direct (NODE_EXTRA_CA_CERTS, read at start-up).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { deadPort, startProxy } from '../helpers/proxy.js';
import { launchAgent } from '../helpers/service.js';
import { perTest } from '../helpers/service-support.js';
import { HAS_OPENSSL, NEEDS_OPENSSL, httpsService, makeCerts } from '../helpers/tls.js';

const each = perTest();
const IMPORT_LOG_HOOK = path.join(path.dirname(fileURLToPath(import.meta.url)), '../helpers/import-log.mjs');

/** Runs the binary with the import log on: its result, and the vendor bundles it imported. */
async function runLogged(args: string[], opts: Parameters<typeof runCli>[1]) {
  const log = path.join(each.scratch('superagent-imports-'), 'imports.txt');
  const env = { ...opts?.env, NODE_OPTIONS: `--import ${IMPORT_LOG_HOOK}`, IMPORT_LOG: log };
  const r = await runCli(args, { ...opts, env });
  const urls = fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n') : [];
  return { ...r, vendors: [...new Set(urls.filter((u) => u.includes('/dist/vendor/')).map((u) => path.basename(u)))] };
}

describe('the built binary behind a proxy', () => {
  it('HTTP_PROXY: every request of get --json goes through it, the same answer as direct', async () => {
    const svc = await each.service();
    await launchAgent(svc, { name: 'e2e-proxy' });
    svc.exchanges.splice(0);
    const p = await startProxy();
    each.closeAfter(p);
    const target = { url: svc.url, key: svc.key };
    const direct = await runLogged(['get', 'e2e-proxy', '--json'], { target });
    expect(direct.exitCode, direct.stderr).toBe(0);
    // no proxy variable: undici is not loaded at all
    expect(direct.vendors).not.toContain('undici.js');
    svc.exchanges.splice(0);
    const through = await runLogged(['get', 'e2e-proxy', '--json'], { target, env: { HTTP_PROXY: p.url } });
    expect(through.exitCode, through.stderr).toBe(0);
    expect(through.vendors).toContain('undici.js');
    expect(through.stdout).toBe(direct.stdout);
    const sent = svc.cliRequests().map((q) => `${q.method} ${svc.url}${q.path}`);
    expect(sent.length).toBeGreaterThan(0);
    expect(p.log.map((l) => l.line.replace(/\?.*$/, ''))).toEqual(sent);
  });

  it('NO_PROXY naming the host: direct, undici not loaded', async () => {
    const svc = await each.service();
    const p = await startProxy();
    each.closeAfter(p);
    const env = { http_proxy: p.url, no_proxy: '127.0.0.1' };
    const r = await runLogged(['list', '--json'], { target: { url: svc.url, key: svc.key }, env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect([p.log, r.vendors.includes('undici.js')]).toEqual([[], false]);
  });

  it('a dead proxy: one line naming it, its password masked, exit 7', async () => {
    const svc = await each.service();
    const port = await deadPort();
    const env = { HTTP_PROXY: `http://bob:hunter22@127.0.0.1:${port}` };
    const r = await runCli(['list'], { target: { url: svc.url, key: svc.key }, env });
    expect(r).toMatchObject({ exitCode: 7, stdout: '' });
    expect(r.stderr).toMatch(
      new RegExp(
        `^Error: cannot reach ${svc.url}/v1/superagents through the proxy http://…@127\\.0\\.0\\.1:${port}: ` +
          'connection refused \\(check the proxy in HTTP_PROXY[^\\n]*\\)\\n$',
      ),
    );
    expect(r.stderr).not.toContain('hunter22');
    expect(r.stderr).not.toContain('that the service is running');
  });
});

describe.skipIf(!HAS_OPENSSL)(`HTTPS_PROXY: a CONNECT tunnel${NEEDS_OPENSSL}`, () => {
  it('carried, the service certificate checked against NODE_EXTRA_CA_CERTS as direct', async () => {
    const certs = makeCerts();
    const json = { 'content-type': 'application/json' };
    const s = await httpsService(certs.good, (_req, res) => res.writeHead(200, json).end('{"agents":[]}'));
    each.closeAfter(s);
    const p = await startProxy();
    each.closeAfter(p);
    const env = { HTTPS_PROXY: p.url, NODE_EXTRA_CA_CERTS: certs.caFile };
    const r = await runCli(['list', '--json'], { target: { url: s.url, key: 'sa_sk_' + 'E'.repeat(32) }, env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ agents: [] });
    expect(p.log.map((l) => l.line)).toEqual([`CONNECT ${new URL(s.url).host}`]);
    expect(s.requests).toEqual(['GET /v1/superagents']);
  });
});
