// A base URL that answers with a redirect. The client follows none (a key sent on to wherever a
// Location points could leak), so the redirect is the command's failure: this says where it points
// and what to do. When the Location is the same API path elsewhere, the base URL to use is that
// address less the path the client added; from https to plain http it is a downgrade, said as such,
// and plain http is never offered as the address to use.
import { redactText } from './redact.js';
import { NotTheServiceError } from './errors.js';

const CHECK_BASE = "check the base URL: the service's address, without /v1";
const SAME_BASE = 'the base URL is right, but the service sends its own API elsewhere: ask its operator why';
const DOWNGRADE =
  "not followed: check the base URL, and ask the service's operator why it sends https requests to plain http";

/** `location` resolved against the request; undefined when it is no URL. */
function resolved(location: string, request: URL): URL | undefined {
  try {
    return new URL(location, request);
  } catch {
    return undefined;
  }
}

/** The base URL the redirect implies: its target less `contractPath` (no query, no credentials), if it ends so. */
function impliedBase(target: URL, contractPath: string): string | undefined {
  const path = contractPath.split('?')[0]!;
  if (!target.pathname.endsWith(path)) return undefined;
  return `${target.origin}${target.pathname.slice(0, -path.length).replace(/\/+$/, '')}`;
}

/** The error for a `status` redirect of the request to `requestUrl` (the base URL then `contractPath`). */
export function redirectError(
  requestUrl: URL,
  contractPath: string,
  status: number,
  location: string | undefined,
): NotTheServiceError {
  const from = redactText(requestUrl.href, []);
  if (location === undefined) return new NotTheServiceError(`${from} redirects (${status})`, CHECK_BASE, status);
  const target = resolved(location, requestUrl);
  const said = `${from} redirects to ${redactText(target?.href ?? location, [])} (${status})`;
  if (target && requestUrl.protocol === 'https:' && target.protocol === 'http:') {
    return new NotTheServiceError(`${said}, from https to plain http`, DOWNGRADE, status);
  }
  const base = target && impliedBase(target, contractPath);
  if (base !== undefined && base === impliedBase(requestUrl, contractPath))
    return new NotTheServiceError(said, SAME_BASE, status);
  return new NotTheServiceError(said, base ? `use ${base} as the base URL` : CHECK_BASE, status);
}
