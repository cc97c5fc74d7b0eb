// Credentials in URLs are masked in every message, whether or not the URL parses: a base URL that
// does not parse is echoed in its error, and WHATWG's parser would take `/`, `?` or `#` in a password
// for the end of the host, so no parse can be trusted to find the credentials.
import { describe, expect, it } from 'vitest';
import { normaliseBaseUrl } from '../../src/config/resolve.js';
import { maskUrl, maskUrls } from '../../src/core/mask.js';

const SECRET = 'pw';

describe('maskUrls (credentials in any text)', () => {
  it.each([
    ['a slash in the password (the URL does not parse)', 'http://alice:pw/x@host', 'http://…@host'],
    ['the same, quoted in an error', "'http://alice:pw/x@host/v1' is not a URL", "'http://…@host/v1' is not a URL"],
    ['a question mark in the password', 'https://alice:pw?x@host/path', 'https://…@host/path'],
    ['a hash in the password', 'https://alice:pw#x@host', 'https://…@host'],
    ['an @ in the password', 'https://alice:p@w@host:8080/', 'https://…@host:8080/'],
    ['a backslash and a slash', 'http://alice:p\\w/@host', 'http://…@host'],
    [
      'a token as the user',
      'see https://pwtoken/x@api.example.com/v1 for it',
      'see https://…@api.example.com/v1 for it',
    ],
    ['a parsed URL', 'https://alice:pw@host/', 'https://…@host/'],
    ['two URLs in a line', 'from http://a:pw@one/ to https://b:pw/x@two/', 'from http://…@one/ to https://…@two/'],
    ['a URL in a JSON body', '{"url":"http://alice:pw/x@host","n":1}', '{"url":"http://…@host","n":1}'],
  ])('%s', (_what, text, masked) => {
    expect(maskUrls(text)).toBe(masked);
    expect(maskUrls(text)).not.toContain(SECRET);
  });

  it.each([
    ['a URL without credentials', 'https://example.com/path?q=1'],
    ['an address after a URL', 'see https://example.com/help or write to help@example.com'],
    ['a URL and an address in JSON', '{"url":"https://example.com/x","mail":"a@example.com"}'],
    ['a masked URL (masking twice changes nothing)', 'http://…@host/'],
  ])('leaves %s as it is', (_what, text) => {
    expect(maskUrls(text)).toBe(text);
  });
});

describe('maskUrl (one value meant as a URL)', () => {
  it.each([
    ['a space in the password', 'http://alice:p w@host', 'http://…@host'],
    ['no scheme', 'alice:pw@host', '…@host'],
    ['no scheme, a slash', 'alice:pw/x@host/v1', '…@host/v1'],
    ['a quote in the password', "http://alice:it's pw@host", 'http://…@host'],
    ['no credentials', 'https://example.com/v1', 'https://example.com/v1'],
  ])('%s', (_what, value, masked) => {
    expect(maskUrl(value)).toBe(masked);
  });
});

describe('a base URL that does not parse', () => {
  it.each([
    'http://alice:pw/x@host',
    'http://alice:p w/x@host',
    'alice:pw@host',
    "http://alice:it's pw/x@host",
    'ftp://alice:pw/x@host',
  ])('is named in its error with its credentials masked: %s', (raw) => {
    let message = '';
    try {
      normaliseBaseUrl(raw);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/not a URL|must start with/);
    expect(message).toContain('…@host');
    expect(message).not.toContain(SECRET);
    expect(message).not.toContain('alice');
  });
});
