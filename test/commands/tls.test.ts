// A hosted service whose certificate the CLI refuses, as a user meets it: one line saying what is
// wrong in words and what to do (exit 7), the connection not tried again. Real HTTPS servers on
// loopback with certificates made by openssl at test time (test/helpers/tls.ts).
import { beforeAll, describe, expect, it } from 'vitest';
import { FakeClock, runLine } from '../helpers/context.js';
import { stopService } from '../helpers/service-support.js';
import { startTestService } from '../helpers/service.js';
import { HAS_OPENSSL, NEEDS_OPENSSL, useHttps, type KeyPair, type TestCerts } from '../helpers/tls.js';

const KEY = 'sa_sk_' + 'T'.repeat(32);

describe.skipIf(!HAS_OPENSSL)(`a certificate the CLI refuses${NEEDS_OPENSSL}`, () => {
  const tls = useHttps();
  let certs: TestCerts;
  beforeAll(() => void ({ certs } = tls));
  const serve = (pair: KeyPair) =>
    tls.serve(pair, (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"agents":[]}'));

  it('self-signed: untrusted, NODE_EXTRA_CA_CERTS named for a private authority, one connection', async () => {
    const s = await serve(certs.selfSigned);
    const clock = new FakeClock();
    const r = await runLine({ url: s.url, key: KEY }, 'list', { clock });
    expect(r).toMatchObject({ code: 7, stdout: '' });
    expect(r.stderr).toBe(
      `Error: cannot connect securely to ${s.url}/v1/superagents: its certificate is not trusted (self-signed) ` +
        '(if the service uses a private certificate authority, set ' +
        "NODE_EXTRA_CA_CERTS to a PEM file of that authority's certificate)\n",
    );
    expect([s.connections(), clock.slept]).toEqual([1, []]);
  });

  it('self-signed, with NODE_EXTRA_CA_CERTS already set: says it is set, but without this certificate', async () => {
    const s = await serve(certs.selfSigned);
    const env = { NODE_EXTRA_CA_CERTS: certs.caFile };
    const r = await runLine({ url: s.url, key: KEY }, 'list', { clock: new FakeClock(), env });
    expect(r).toMatchObject({ code: 7, stdout: '' });
    expect(r.stderr).toBe(
      `Error: cannot connect securely to ${s.url}/v1/superagents: its certificate is not trusted (self-signed) ` +
        `(NODE_EXTRA_CA_CERTS is set (${certs.caFile}), but that file does not include this self-signed certificate: ` +
        'add its certificate (PEM) to it)\n',
    );
  });

  it('a base URL of https:// at a plain HTTP port: said, with the http:// URL to use, not retried', async () => {
    const plain = await startTestService();
    try {
      const wrong = plain.url.replace('http://', 'https://');
      const clock = new FakeClock();
      const r = await runLine({ url: wrong, key: plain.key }, 'list', { clock });
      expect(r).toMatchObject({ code: 7, stdout: '' });
      const said = `the service at ${wrong} speaks plain HTTP, not HTTPS (use ${plain.url} as the base URL)`;
      expect(r.stderr).toBe(`Error: ${said}\n`);
      expect(clock.slept).toEqual([]);
    } finally {
      await stopService(plain);
    }
  });

  it('expired: said so, one connection, no retry notice', async () => {
    const s = await serve(certs.expired);
    const clock = new FakeClock();
    const r = await runLine({ url: s.url, key: KEY }, 'list', { clock });
    expect(r).toMatchObject({ code: 7, stdout: '' });
    expect(r.stderr).toBe(
      `Error: cannot connect securely to ${s.url}/v1/superagents: its certificate has expired ` +
        "(the service's operator must renew it; if it should still be valid, check this machine's date and time)\n",
    );
    expect([s.connections(), clock.slept]).toEqual([1, []]);
  });
});
