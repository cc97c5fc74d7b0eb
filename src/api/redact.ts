// Keeps secrets out of the --debug trace and error text: keys, bot tokens and credentials in URLs are masked.
import { maskBotToken, maskBotTokens, maskKey, maskKeys, maskUrls } from '../core/mask.js';

const SECRET_FIELDS = /"(telegram_bot_token|api_key|apiKey|token)"\s*:\s*"([^"]*)"/g;

export function redactText(text: string, secrets: string[] = []): string {
  let out = text.replace(
    SECRET_FIELDS,
    (_, field: string, value: string) =>
      `"${field}":"${field === 'telegram_bot_token' ? maskBotToken(value) : maskKey(value)}"`,
  );
  out = maskKeys(maskBotTokens(out));
  for (const secret of secrets) if (secret) out = out.split(secret).join(maskKey(secret));
  return maskUrls(out);
}

export function redactHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.join(', ') : value;
    const lower = name.toLowerCase();
    if (lower === 'authorization')
      out[name] = text.replace(
        /^(\w+\s+)?(.*)$/,
        (_, scheme: string | undefined, key: string) => `${scheme ?? ''}${maskKey(key)}`,
      );
    else if (lower === 'x-api-key') out[name] = maskKey(text);
    else out[name] = text;
  }
  return out;
}

const TRACE_BODY_CHARS = 2000;

/** A body as the trace shows it: its first 2000 characters, and how long it is. */
export function cutForTrace(text: string): string {
  return text.length > TRACE_BODY_CHARS ? `${text.slice(0, TRACE_BODY_CHARS)}… (${text.length} characters)` : text;
}
