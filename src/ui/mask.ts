// Secrets masked in whatever the tool prints: the masks of core/mask.ts, and the secrets this process holds.
import { maskBotTokens, maskKey, maskKeys, maskUrls } from '../core/mask.js';

export { maskBotToken, maskBotTokens, maskKey, maskKeys, maskUrl, maskUrls } from '../core/mask.js';

// bearer tokens, wherever they appear in a text
const BEARER = /\b(Bearer\s+)[A-Za-z0-9._~+/-]{8,}=*/gi;
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
  let out = maskBotTokens(maskKeys(maskUrls(text)).replace(BEARER, '$1…'));
  for (const secret of held) if (out.includes(secret)) out = out.split(secret).join(maskKey(secret));
  return out;
}
