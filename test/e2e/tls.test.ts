// HTTPS where only a separate process shows it: NODE_EXTRA_CA_CERTS, the way in the CLI names for a
// private certificate authority, is read by Node at start-up. With it the built binary trusts the
// test's authority; then a certificate of another host and a redirect from https to plain http are
// what fails. (Self-signed and expired: test/commands/tls.test.ts.)
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { HAS_OPENSSL, NEEDS_OPENSSL, useHttps, type TestCerts } from '../helpers/tls.js';

const KEY = 'sa_sk_' + 'E'.repeat(32);
const AGENT = { agent_id: 'a1b2c3d4-5678-90ab-cdef-1234567890ab', name: 'tls-demo', status: 'running' };

describe.skipIf(!HAS_OPENSSL)(`HTTPS with a private certificate authority${NEEDS_OPENSSL}`, () => {
  const tls = useHttps();
  let certs: TestCerts;
  beforeAll(() => void ({ certs } = tls));
  const serve = tls.serve;
  const list = (url: string, extraCa = certs.caFile) =>
    runCli(['list', '--json'], { target: { url, key: KEY }, env: { NODE_EXTRA_CA_CERTS: extraCa } });

  it('with the authority named in NODE_EXTRA_CA_CERTS, its certificate is trusted: the advice works', async () => {
    const s = await serve(certs.good, (_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ agents: [AGENT] })),
    );
    const r = await list(s.url);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ agents: [{ agent_id: AGENT.agent_id, name: 'tls-demo' }] });
  });

  it('a certificate for another host: said in words, naming the host it is for, one connection', async () => {
    const s = await serve(certs.otherHost, (_req, res) => res.end('{}'));
    const r = await list(s.url);
    expect(r.exitCode).toBe(7);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')[0]).toBe(
      `Error: cannot connect securely to ${s.url}/v1/superagents: its certificate ` +
        `is for another host (DNS:example.test), not 127.0.0.1 ` +
        '(check the host in the base URL: it must be one the certificate names)',
    );
    expect([s.connections(), s.requests]).toEqual([1, []]);
  });

  it('a redirect from https to plain http is called a downgrade, and plain http is not offered', async () => {
    const s = await serve(certs.good, (req, res) =>
      res.writeHead(301, { location: `http://127.0.0.1:9${req.url}` }).end(),
    );
    const r = await list(s.url);
    expect(r.exitCode).toBe(7);
    expect(r.stderr.split('\n')[0]).toBe(
      `Error: ${s.url}/v1/superagents redirects to http://127.0.0.1:9/v1/superagents (301), from https to plain http ` +
        "(not followed: check the base URL, and ask the service's operator why it sends https requests to plain http)",
    );
    expect(s.requests).toEqual(['GET /v1/superagents']);
  });
});
