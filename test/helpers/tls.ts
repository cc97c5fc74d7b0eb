// HTTPS on loopback for the certificate tests: certificates made at test time by the `openssl`
// command (node:crypto makes keys, not X.509 certificates) in a temp dir removed when the file ends,
// and servers that count every TCP connection (a handshake the client refuses never becomes a request).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, beforeAll } from 'vitest';
import { removeAfterFile } from './after-file.js';
import { tempDir } from './service.js';

export const HAS_OPENSSL = spawnSync('openssl', ['version']).status === 0;
/** For a describe that is skipped without it: says why in its title. */
export const NEEDS_OPENSSL = HAS_OPENSSL ? '' : ' (skipped: no openssl command on this machine to make certificates)';

export interface KeyPair {
  cert: string;
  key: string;
}

export interface TestCerts {
  /** a private certificate authority's certificate (PEM file), for NODE_EXTRA_CA_CERTS */
  caFile: string;
  /** signed by the authority, for 127.0.0.1 */
  good: KeyPair;
  /** self-signed, for 127.0.0.1 */
  selfSigned: KeyPair;
  /** signed by the authority, for 127.0.0.1, expired a day ago */
  expired: KeyPair;
  /** signed by the authority, for example.test (served at 127.0.0.1: the wrong host) */
  otherHost: KeyPair;
}

const EC_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

function openssl(dir: string, args: string[]): void {
  const r = spawnSync('openssl', args, { cwd: dir, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`openssl ${args.join(' ')} failed: ${r.stderr}`);
}

/** The certificates, made in a temp dir that is removed when the test file is done. */
export function makeCerts(): TestCerts {
  const dir = removeAfterFile(tempDir('superagent-tls-'));
  const read = (name: string): KeyPair => ({
    cert: fs.readFileSync(path.join(dir, `${name}.pem`), 'utf8'),
    key: fs.readFileSync(path.join(dir, `${name}.key`), 'utf8'),
  });
  openssl(dir, [
    'req',
    '-x509',
    ...EC_KEY,
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    '/CN=superagent test CA',
  ]);
  openssl(dir, [
    'req',
    '-x509',
    ...EC_KEY,
    '-keyout',
    'self.key',
    '-out',
    'self.pem',
    '-days',
    '2',
    '-subj',
    '/CN=127.0.0.1',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
  ]);
  const signed = (name: string, subject: string, altName: string, days: string) => {
    fs.writeFileSync(path.join(dir, `${name}.ext`), `subjectAltName=${altName}\n`);
    openssl(dir, ['req', ...EC_KEY, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject]);
    // a negative -days makes a certificate whose end lies before its start: expired already
    openssl(dir, [
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      `${name}.pem`,
      '-days',
      days,
      '-extfile',
      `${name}.ext`,
    ]);
  };
  signed('good', '/CN=127.0.0.1', 'IP:127.0.0.1', '2');
  signed('expired', '/CN=127.0.0.1', 'IP:127.0.0.1', '-1');
  signed('other-host', '/CN=example.test', 'DNS:example.test', '2');
  return {
    caFile: path.join(dir, 'ca.pem'),
    good: read('good'),
    selfSigned: read('self'),
    expired: read('expired'),
    otherHost: read('other-host'),
  };
}

export interface HttpsService {
  url: string;
  /** TCP connections made to it so far */
  connections(): number;
  /** requests that got through the handshake */
  requests: string[];
  close(): Promise<void>;
}

/** An HTTPS server on 127.0.0.1 with `pair`, answering every request with `handler`. */
export async function httpsService(
  pair: KeyPair,
  handler: (req: http.IncomingMessage, res: http.ServerResponse) => void,
): Promise<HttpsService> {
  let connections = 0;
  const requests: string[] = [];
  const server = https.createServer(pair, (req, res) => {
    requests.push(`${req.method} ${req.url}`);
    handler(req, res);
  });
  server.on('connection', () => connections++);
  // a refused handshake is the client's to report, not an error of this server
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: () => connections,
    requests,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

/**
 * For a describe: its certificates (made once, before its tests) and HTTPS servers on them, each
 * closed after its test.
 */
export function useHttps() {
  const open: HttpsService[] = [];
  const tls = {
    certs: undefined as unknown as TestCerts,
    async serve(pair: KeyPair, handler: Parameters<typeof httpsService>[1]): Promise<HttpsService> {
      const s = await httpsService(pair, handler);
      open.push(s);
      return s;
    },
  };
  beforeAll(() => {
    tls.certs = makeCerts();
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
  });
  return tls;
}
