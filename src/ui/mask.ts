// How secrets appear anywhere we print them (CLI.md): `sa_sk_…9f2c`, or `…` for a short one.

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

// `scheme://user:password@` (or a token as the user): whatever sits before the @ is a credential, even
// with characters a valid URL would have escaped (`#`, `?`: the URL may be the invalid one quoted in an error)
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@]+@/gi;

/** Every URL in `text` with its user and password replaced by `…` (`https://…@host/`). */
export function maskUrls(text: string): string {
  return text.replace(URL_CREDENTIALS, '$1…@');
}

// keys of the two services (`sa_sk_…`, `gb_sk_…`) and bearer tokens, wherever they appear in a text
const KEY_LIKE = /\b(?:sa|gb)_sk_[A-Za-z0-9_-]{6,}/g;
const BEARER = /\b(Bearer\s+)[A-Za-z0-9._~+/-]{8,}=*/gi;
// a Telegram bot token, `<bot id>:<secret>` (the shape the contract's BOT_TOKEN_PATTERN accepts), within a text
const BOT_TOKEN = /\b(\d+):[A-Za-z0-9_-]{30,}/g;

/** Every bot token in `text` showing its bot id only (`7012345678:…`). */
export function maskBotTokens(text: string): string {
  return text.replace(BOT_TOKEN, (_, id: string) => `${id}:…`);
}

/** Secrets this process holds (the API key in use): masked wherever they turn up, whatever their form. */
const held = new Set<string>();

export function holdSecret(secret: string | null | undefined): void {
  if (secret && secret.length >= 8) held.add(secret);
}

/**
 * `text` with every secret in it masked: credentials in URLs, anything shaped like a key, a bearer
 * token or a bot token, and the secrets this process holds. For any text that may carry the
 * service's words (an error message can echo the key it was sent), and for diffs and plans.
 */
export function maskSecrets(text: string): string {
  let out = maskBotTokens(maskUrls(text).replace(KEY_LIKE, (key) => maskKey(key)).replace(BEARER, '$1…'));
  for (const secret of held) if (out.includes(secret)) out = out.split(secret).join(maskKey(secret));
  return out;
}
