// Which proxy a URL goes through (src/api/proxy.ts), read as undici's EnvHttpProxyAgent reads the
// variables: lower case first (even empty), HTTPS_PROXY falling back on HTTP_PROXY, NO_PROXY entries.
import { describe, expect, it } from 'vitest';
import { proxyFor, proxySettings, unusableProxy, type Env } from '../../src/api/proxy.js';

const via = (url: string, env: Env) => proxyFor(new URL(url), proxySettings(env));
const P = 'http://proxy.test:3128';
const hit = (variable: string) => ({ proxy: P, variable });

describe('proxyFor', () => {
  it.each<[string, string, Env, ReturnType<typeof via>]>([
    ['nothing set', 'https://api.test', {}, undefined],
    ['HTTPS_PROXY for https', 'https://api.test', { HTTPS_PROXY: P }, hit('HTTPS_PROXY')],
    ['HTTPS_PROXY not for http', 'http://api.test', { HTTPS_PROXY: P }, undefined],
    ['https falls back on http_proxy', 'https://api.test', { http_proxy: P }, hit('http_proxy')],
    ['lower case first', 'http://api.test', { http_proxy: P, HTTP_PROXY: 'http://other:1' }, hit('http_proxy')],
    ['an empty lower case one hides the upper case', 'http://api.test', { http_proxy: '', HTTP_PROXY: P }, undefined],
    [
      'host:port is http',
      'http://api.test',
      { HTTP_PROXY: 'proxy.test:3128' },
      { ...hit('HTTP_PROXY'), written: 'proxy.test:3128' },
    ],
    ['NO_PROXY: the host', 'https://api.test', { HTTPS_PROXY: P, NO_PROXY: 'API.test' }, undefined],
    ['NO_PROXY: a subdomain', 'https://eu.api.test', { HTTPS_PROXY: P, NO_PROXY: 'api.test' }, undefined],
    ['NO_PROXY: *.domain', 'https://eu.api.test', { HTTPS_PROXY: P, no_proxy: '*.api.test' }, undefined],
    ['NO_PROXY: not a mere suffix', 'https://myapi.test', { HTTPS_PROXY: P, NO_PROXY: 'api.test' }, hit('HTTPS_PROXY')],
    ['NO_PROXY: the default port', 'https://api.test', { HTTPS_PROXY: P, NO_PROXY: 'api.test:443' }, undefined],
    ['NO_PROXY: another port', 'https://api.test', { HTTPS_PROXY: P, NO_PROXY: 'api.test:8443' }, hit('HTTPS_PROXY')],
    ['NO_PROXY: *', 'https://api.test', { HTTPS_PROXY: P, NO_PROXY: '*' }, undefined],
    ['NO_PROXY: IPv6 in brackets', 'http://[::1]:8080', { HTTP_PROXY: P, NO_PROXY: '[::1]' }, undefined],
    ['loopback has no exception of its own', 'http://localhost:8080', { HTTP_PROXY: P }, hit('HTTP_PROXY')],
  ])('%s', (_, url, env, expected) => {
    expect(via(url, env)).toEqual(expected);
  });
});

describe('unusableProxy', () => {
  it.each(['http://proxy.test:3128', 'https://u:p@proxy.test'])('%s is usable', (proxy) => {
    expect(unusableProxy({ proxy, variable: 'HTTP_PROXY' })).toBeUndefined();
  });

  it.each(['http://[::1', 'ftp://proxy.test'])('%s is not', (proxy) => {
    expect(unusableProxy({ proxy, variable: 'HTTP_PROXY' })?.message).toMatch(/^HTTP_PROXY is not a proxy URL/);
  });
});
