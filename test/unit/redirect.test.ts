// What the CLI says about a base URL that redirects (src/api/redirect.ts): redirects are never
// followed; the error names where it points and, when that is the API's own path elsewhere, the base
// URL to use instead, without the path the client added and never a move from https to plain http.
import { describe, expect, it } from 'vitest';
import { NotTheServiceError } from '../../src/api/errors.js';
import { redirectError } from '../../src/api/redirect.js';
import { exitCodeFor } from '../../src/cli/exit-codes.js';

const GENERIC = "check the base URL: the service's address, without /v1";
const SAME_BASE = 'the base URL is right, but the service sends its own API elsewhere: ask its operator why';

describe('redirectError', () => {
  it.each<[string, string, string, string | undefined, string, string]>([
    // request URL, contract path, Location, shown as, hint
    [
      'http → https, same API path',
      'http://api.example.com/v1/superagents',
      '/v1/superagents',
      'https://api.example.com/v1/superagents',
      'https://api.example.com/v1/superagents',
      'use https://api.example.com as the base URL',
    ],
    [
      'another host',
      'https://old.example.com/v1/superagents',
      '/v1/superagents',
      'https://new.example.com/v1/superagents',
      'https://new.example.com/v1/superagents',
      'use https://new.example.com as the base URL',
    ],
    [
      'a prefix kept',
      'http://h.example/api/v1/superagents/abc/pause',
      '/v1/superagents/abc/pause',
      'https://h.example/api/v1/superagents/abc/pause',
      'https://h.example/api/v1/superagents/abc/pause',
      'use https://h.example/api as the base URL',
    ],
    [
      'a query string is not the path',
      'http://h.example/v1/classic?limit=10',
      '/v1/classic?limit=10',
      'https://h.example/v1/classic?limit=10',
      'https://h.example/v1/classic?limit=10',
      'use https://h.example as the base URL',
    ],
    [
      'a relative Location',
      'http://127.0.0.1:8080/v1/superagents',
      '/v1/superagents',
      '/svc/v1/superagents',
      'http://127.0.0.1:8080/svc/v1/superagents',
      'use http://127.0.0.1:8080/svc as the base URL',
    ],
    [
      'a page, not the API: no address to suggest',
      'http://h.example/v1/superagents',
      '/v1/superagents',
      'https://elsewhere.example/',
      'https://elsewhere.example/',
      GENERIC,
    ],
    [
      'a login page',
      'https://h.example/v1/superagents',
      '/v1/superagents',
      'https://sso.example/login?next=/v1/superagents',
      'https://sso.example/login?next=/v1/superagents',
      GENERIC,
    ],
    // the base URL it implies is the one in use: suggesting it again would go round in circles
    [
      'the same API path, another query',
      'https://h.example/v1/superagents',
      '/v1/superagents',
      '/v1/superagents?x=1',
      'https://h.example/v1/superagents?x=1',
      SAME_BASE,
    ],
  ])('%s', (_what, requestUrl, path, location, shown, hint) => {
    const err = redirectError(new URL(requestUrl), path, 301, location);
    expect(err).toBeInstanceOf(NotTheServiceError);
    expect(err.message).toBe(`${requestUrl} redirects to ${shown} (301)`);
    expect(err.hint).toBe(hint);
    expect([err.status, exitCodeFor(err)]).toEqual([301, 7]);
  });

  it.each([
    ['the same path', 'http://api.example.com/v1/superagents'],
    ['a login page', 'http://sso.example/login'],
  ])('https → plain http (%s): said to be a downgrade, and http:// is never suggested', (_what, location) => {
    const err = redirectError(new URL('https://api.example.com/v1/superagents'), '/v1/superagents', 302, location);
    expect(err.message).toMatch(
      /^https:\/\/api\.example\.com\/v1\/superagents redirects to http:\/\/\S+ \(302\), from https to plain http$/,
    );
    expect(err.hint).toBe(
      "not followed: check the base URL, and ask the service's operator why it sends https requests to plain http",
    );
    expect(err.hint).not.toMatch(/http:\/\//);
  });

  it('no Location: the status alone', () => {
    const err = redirectError(new URL('http://h.example/v1/superagents'), '/v1/superagents', 308, undefined);
    expect([err.message, err.hint]).toEqual(['http://h.example/v1/superagents redirects (308)', GENERIC]);
  });

  it('a Location that is no URL is shown as it came (masked), with the general hint', () => {
    const err = redirectError(new URL('http://h.example/v1/superagents'), '/v1/superagents', 301, 'http://[bad');
    expect([err.message, err.hint]).toEqual([
      'http://h.example/v1/superagents redirects to http://[bad (301)',
      GENERIC,
    ]);
  });

  it('credentials in the Location or the request URL never appear, in the message or the suggestion', () => {
    const err = redirectError(
      new URL('http://alice:s3cret-pw@h.example/v1/superagents'),
      '/v1/superagents',
      301,
      'https://bob:other-pw@api.example.com/v1/superagents',
    );
    expect(`${err.message} ${err.hint}`).not.toMatch(/s3cret-pw|other-pw/);
    expect(err.hint).toBe('use https://api.example.com as the base URL');
  });
});
