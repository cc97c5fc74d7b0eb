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
