// How secrets appear anywhere we print them: `sa_sk_…9f2c` for a key, `https://…@host` for a URL
// with credentials. Below every other layer, so the client's trace, the config's errors and the
// terminal all mask the same way.

export function maskKey(key: string): string {
  if (key.length < 16) return '…';
  const prefix = /^[A-Za-z]+_[A-Za-z]+_/.exec(key)?.[0] ?? '';
  return `${prefix}…${key.slice(-4)}`;
}

/** A bot token `<id>:<secret>` shows its bot id only. */
export function maskBotToken(token: string): string {
  const id = /^(\d+):/.exec(token)?.[1];
  return id ? `${id}:…` : '…';
}

// `scheme://user:password@`: everything up to the last @ of the URL is taken for credentials, not
// what a parser would take: WHATWG ends the host at the first `/`, `?` or `#`, so
// `http://alice:pw/x@host` "has" no password (it is host `alice`, port `pw`, and fails). The URL
// ends at a space, or at `"`, `<`, `>` or a backtick (a parsed URL escapes them; JSON and Markdown
// quote with them). A path with an @ in it loses its host to the mask: a password never shows.
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s"<>`]*@/gi;

/** Every URL in `text` with its user and password replaced by `…` (`https://…@host/`). */
export function maskUrls(text: string): string {
  return text.replace(URL_CREDENTIALS, '$1…@');
}

/**
 * One value meant as a URL (a base URL as typed, which may not parse): everything before its last
 * @, spaces and quotes included, is masked, with or without a scheme.
 */
export function maskUrl(value: string): string {
  const at = value.lastIndexOf('@');
  if (at < 0) return value;
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(value)?.[0] ?? '';
  return `${scheme}…${value.slice(at)}`;
}

// a Telegram bot token, `<bot id>:<secret>` (the shape the contract's BOT_TOKEN_PATTERN accepts), within a
// text: wherever its digits start, as in a Bot API path (`/bot7012345678:AAH…/sendMessage`)
const BOT_TOKEN = /(?<!\d)(\d+):[A-Za-z0-9_-]{30,}/g;

/** Every bot token in `text` showing its bot id only (`7012345678:…`). */
export function maskBotTokens(text: string): string {
  return text.replace(BOT_TOKEN, (_, id: string) => `${id}:…`);
}

// a key of either service: its prefix in any case, wherever it starts (`KEY=SA_SK_…`, `xsa_sk_…`), and
// every key character after it; demanding: even a short one is masked, it may be a key cut short
const KEY_SHAPED = /(sa|gb)_sk_[A-Za-z0-9_-]+/gi;

/** Every key-shaped word in `text` masked: `sa_sk_…9f2c`, or the prefix alone for a short one. */
export function maskKeys(text: string): string {
  return text.replace(KEY_SHAPED, (key) => (key.length >= 16 ? maskKey(key) : `${key.slice(0, 6)}…`));
}
