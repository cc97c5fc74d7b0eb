// Field checks for request bodies. Each returns the clean value or throws a 400 whose
// message names the field and the rule, NestJS-style ("name is required").
import { badRequest } from './http.js';
import { PROVIDERS, invisibleIn, isProvider, type Provider } from '../contract.js';

type Body = Record<string, unknown>;

/**
 * Control characters a terminal acts on instead of showing: C0, DEL and C1 (which holds
 * CSI, U+009B); ESC starts every escape sequence, so refusing it refuses them all. A `line` (a
 * name) holds none; a `text` (a description) may hold tabs and line breaks.
 */
const CONTROLS = {
  line: /[\u0000-\u001f\u007f-\u009f]/,
  text: /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/,
} as const;

/** 400 when `value` holds a control character its kind does not allow. */
function assertNoControls(field: string, value: string, kind: keyof typeof CONTROLS): void {
  if (CONTROLS[kind].test(value)) throw badRequest(`${field} must not contain control characters`);
}

interface StringRules {
  bytes?: boolean;
  /** surrounding white space is dropped before the checks (names) */
  trim?: boolean;
  /** refuse control characters: none in a `line`, none but tab and newline in a `text` */
  noControls?: keyof typeof CONTROLS;
  /** refuse what spoofs a name on a terminal without being a control (U+202E, U+200B, U+2028…) */
  noInvisibles?: boolean;
}

/** An agent's name: trimmed, one line, nothing that spoofs what a terminal shows. */
export const NAME_RULES = { trim: true, noControls: 'line', noInvisibles: true } as const satisfies StringRules;

export function optionalString(
  body: Body,
  field: string,
  max: number,
  opts: StringRules & { min?: number } = {},
): string | undefined {
  const raw = body[field];
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'string') throw badRequest(`${field} must be a string`);
  const value = opts.trim ? raw.trim() : raw;
  const min = opts.min ?? 0;
  if (min > 0 && value.trim().length < min) throw badRequest(`${field} must not be empty`);
  const size = opts.bytes ? Buffer.byteLength(value, 'utf8') : [...value].length;
  if (size > max) throw badRequest(`${field} must be at most ${max} ${opts.bytes ? 'bytes' : 'characters'}`);
  if (opts.noControls) assertNoControls(field, value, opts.noControls);
  const invisible = opts.noInvisibles ? invisibleIn(value) : undefined;
  if (invisible)
    throw badRequest(`${field} must not contain invisible or direction-changing characters (${invisible})`);
  return value;
}

export function requiredString(body: Body, field: string, max: number, opts: StringRules = {}): string {
  const value = optionalString(body, field, max, { min: 1, ...opts });
  if (value === undefined) throw badRequest(`${field} is required`);
  return value;
}

export function optionalBoolean(body: Body, field: string): boolean | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw badRequest(`${field} must be a boolean`);
  return value;
}

export function requiredProvider(body: Body, field = 'model_provider'): Provider {
  const value = optionalProvider(body, field);
  if (value === undefined) throw badRequest(`${field} is required`);
  return value;
}

export function optionalProvider(body: Body, field = 'model_provider'): Provider | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (!isProvider(value)) throw badRequest(`${field} must be one of: ${PROVIDERS.join(', ')}`);
  return value;
}
