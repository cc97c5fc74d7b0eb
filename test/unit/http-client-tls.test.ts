// The ApiClient against HTTPS services whose certificate it refuses (real servers on loopback,
// certificates made by openssl at test time): what is wrong said in words, a private authority's
// way in named (NODE_EXTRA_CA_CERTS), nothing sent again, and never a suggestion of plain http or of
// turning verification off (NODE_EXTRA_CA_CERTS already set: said, as lacking the issuer). A base URL
// whose scheme is not what its port speaks: said, with the URL to use. Each code Node reports, in
// words: the table at the end. A certificate of another host needs one the client trusts:
// test/e2e/tls.test.ts.
import { beforeAll, describe, expect, it } from 'vitest';
import * as errors from '../../src/api/errors.js';
import { certificateProblem } from '../../src/api/tls.js';
import { exitCodeFor } from '../../src/cli/exit-codes.js';
import { failure, get, httpHarness, post, sequence } from '../helpers/http-scripted.js';
import { NEEDS_OPENSSL, HAS_OPENSSL, useHttps, type TestCerts } from '../helpers/tls.js';

const h = httpHarness();
const PRIVATE_CA =
  'if the service uses a private certificate authority, set ' +
  "NODE_EXTRA_CA_CERTS to a PEM file of that authority's certificate";
const EXPIRED = "the service's operator must renew it; if it should still be valid, check this machine's date and time";
/** what no advice about a certificate may say */
const BAD_ADVICE = /http:\/\/|NODE_TLS_REJECT_UNAUTHORIZED|rejectUnauthorized|insecure|that the service is running/i;

describe.skipIf(!HAS_OPENSSL)(`ApiClient: a certificate it refuses${NEEDS_OPENSSL}`, () => {
  const tls = useHttps();
  let certs: TestCerts;
  beforeAll(() => void ({ certs } = tls));
  const serve = (pair: TestCerts['good']) =>
    tls.serve(pair, (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('[]'));

  it.each<[string, keyof TestCerts, string, string]>([
    ['self-signed', 'selfSigned', 'its certificate is not trusted (self-signed)', PRIVATE_CA],
    ['expired', 'expired', 'its certificate has expired', EXPIRED],
  ])('%s: said in words (exit 7), with what to do, and not tried again', async (_what, which, words, hint) => {
    const s = await serve(certs[which] as TestCerts['good']);
    const c = h.client(s.url);
    const err = await failure(c.client.json(get()));
    expect(err).toBeInstanceOf(errors.ConnectionError);
    expect(err.message).toBe(`cannot connect securely to ${s.url}/v1/superagents: ${words}`);
    expect(err.hint).toBe(hint);
    expect(`${err.message} ${err.hint}`).not.toMatch(BAD_ADVICE);
    expect(exitCodeFor(err)).toBe(7);
    expect([s.connections(), s.requests, c.waits, c.notices]).toEqual([1, [], [], []]);
  });

  it.each<[string, keyof TestCerts, string]>([
    ['self-signed', 'selfSigned', 'this self-signed certificate'],
    ['issued by an authority not in it', 'good', 'the authority that issued it'],
  ])('NODE_EXTRA_CA_CERTS already set, %s: the advice says it is set but lacks the issuer', async (_, key, issuer) => {
    const s = await serve(certs[key] as TestCerts['good']);
    const set = '/etc/ssl/other-authority.pem';
    const err = await failure(h.client(s.url, { extraCaCerts: set }).client.json(get()));
    expect(err.message).toMatch(`cannot connect securely to ${s.url}/v1/superagents: its certificate is not trusted`);
    const is = `NODE_EXTRA_CA_CERTS is set (${set})`;
    expect(err.hint).toBe(`${is}, but that file does not include ${issuer}: add its certificate (PEM) to it`);
    expect(`${err.message} ${err.hint}`).not.toMatch(BAD_ADVICE);
    expect(s.connections()).toBe(1);
  });

  it('a POST refused at the handshake never reached the service: not said to be uncertain', async () => {
    const s = await serve(certs.selfSigned);
    const err = await failure(h.client(s.url).client.json(post()));
    expect(err.message).toBe(
      `cannot connect securely to ${s.url}/v1/superagents: its certificate is not trusted (self-signed)`,
    );
    expect(err.hint).toBe(PRIVATE_CA);
    expect(s.connections()).toBe(1);
  });
});

describe.skipIf(!HAS_OPENSSL)(`ApiClient: a base URL whose scheme is not what its port speaks${NEEDS_OPENSSL}`, () => {
  const tls = useHttps();
  let certs: TestCerts;
  beforeAll(() => void ({ certs } = tls));

  const calls = [
    ['GET', get],
    ['POST', post],
  ] as const;

  it.each(calls)('https:// at a plain HTTP port (%s): said, with the http:// URL to use, not retried', async (_, q) => {
    const s = await h.scripted(sequence({ status: 200, body: [] }));
    const wrong = s.url.replace('http://', 'https://');
    const c = h.client(wrong);
    const err = await failure(c.client.json(q()));
    expect(err).toBeInstanceOf(errors.ConnectionError);
    expect(err.message).toBe(`the service at ${wrong} speaks plain HTTP, not HTTPS`);
    expect(err.hint).toBe(`use ${s.url} as the base URL`);
    expect(exitCodeFor(err)).toBe(7);
    expect([c.waits, c.notices]).toEqual([[], []]);
    // what told it (the request itself never got through the handshake)
    expect(s.requests.map((q) => `${q.method} ${q.url}`)).toEqual(['HEAD /']);
  });

  it.each(calls)('http:// at an HTTPS port (%s): said, with the https:// URL to use; not retried', async (_, call) => {
    const s = await tls.serve(certs.selfSigned, (_req, res) => res.end('[]'));
    const wrong = s.url.replace('https://', 'http://');
    const c = h.client(wrong);
    const err = await failure(c.client.json(call()));
    expect(err).toBeInstanceOf(errors.ConnectionError);
    expect(err.message).toBe(`the service at ${wrong} speaks HTTPS, not plain HTTP`);
    expect(err.hint).toBe(`use ${s.url} as the base URL`);
    expect(exitCodeFor(err)).toBe(7);
    expect([c.waits, c.notices, s.requests]).toEqual([[], [], []]);
  });
});

describe('certificateProblem: each code in words', () => {
  const UNTRUSTED = 'its certificate is not trusted (this machine cannot trace it to an authority it trusts)';
  it.each<[string, Record<string, unknown>, string, string]>([
    ['CERT_HAS_EXPIRED', {}, 'its certificate has expired', EXPIRED],
    ['CERT_NOT_YET_VALID', {}, 'its certificate is not valid yet', "check this machine's date and time"],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', {}, 'its certificate is not trusted (self-signed)', PRIVATE_CA],
    ['SELF_SIGNED_CERT_IN_CHAIN', {}, UNTRUSTED, PRIVATE_CA],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', {}, UNTRUSTED, PRIVATE_CA],
    ['UNABLE_TO_GET_ISSUER_CERT_LOCALLY', {}, UNTRUSTED, PRIVATE_CA],
    ['UNABLE_TO_GET_ISSUER_CERT', {}, UNTRUSTED, PRIVATE_CA],
    ['CERT_UNTRUSTED', {}, UNTRUSTED, PRIVATE_CA],
    ['CERT_REVOKED', {}, 'its certificate has been revoked', "the service's operator must replace it"],
    [
      'ERR_TLS_CERT_ALTNAME_INVALID',
      { host: '127.0.0.1', cert: { subjectaltname: 'DNS:example.test' } },
      'its certificate is for another host (DNS:example.test), not 127.0.0.1',
      'check the host in the base URL: it must be one the certificate names',
    ],
    [
      'ERR_TLS_CERT_ALTNAME_INVALID',
      { host: 'h.example' },
      'its certificate is for another host, not h.example',
      'check the host in the base URL: it must be one the certificate names',
    ],
    ['CERT_SIGNATURE_FAILURE', {}, 'its certificate is not valid (CERT_SIGNATURE_FAILURE)', PRIVATE_CA],
    [
      'ERR_SSL_WRONG_VERSION_NUMBER',
      {},
      'the secure connection failed (ERR_SSL_WRONG_VERSION_NUMBER)',
      "check that the base URL's host and port serve HTTPS",
    ],
  ])('%s %j', (code, more, what, hint) => {
    const problem = certificateProblem({ code, ...more });
    expect(problem).toEqual({ what, hint });
    expect(`${problem!.what} ${problem!.hint}`).not.toMatch(BAD_ADVICE);
  });

  it('a name the certificate gives is cut short', () => {
    const many = Array.from({ length: 40 }, (_, i) => `DNS:host${i}.example`).join(', ');
    const { what } = certificateProblem({
      code: 'ERR_TLS_CERT_ALTNAME_INVALID',
      host: 'h',
      cert: { subjectaltname: many },
    })!;
    expect(what.length).toBeLessThan(200);
    expect(what).toMatch(/^its certificate is for another host \(DNS:host0\.example, .*…\), not h$/);
  });

  it.each(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', undefined])('%s is no certificate problem', (code) => {
    expect(certificateProblem({ code })).toBeUndefined();
  });
});
