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

// `scheme://user:password@` (or a token as the user): whatever sits before the @ is a credential
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]+@/gi;

/** Every URL in `text` with its user and password replaced by `…` (`https://…@host/`). */
export function maskUrls(text: string): string {
  return text.replace(URL_CREDENTIALS, '$1…@');
}
