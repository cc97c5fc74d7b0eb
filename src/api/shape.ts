// The shape hosted-openapi.json gives an answer, checked where the answer is read: one shape per
// answer, next to its call in the resource's file. A field of the wrong type, or one the client
// cannot do without, is the service's fault (exit 7, one line naming the field), never a crash or a
// wrong word further on. Every other field may be missing: the command shows it as unknown
// (`–`), and be null where the document says it may. Fields it does not give are kept as they came
// (docs/api.md, Records and field rules).
import { notAsDescribed } from './answer-checks.js';
import { isObject } from './reply-events.js';

type Kind = 'string' | 'boolean' | 'object' | 'list';

interface Field {
  kind: Kind;
  /** the client cannot use the answer without it */
  required?: boolean;
  /** the document allows null */
  nullable?: boolean;
  /** for a list: the shape of each item; for an object: its own */
  of?: Shape;
}

export type Shape = Readonly<Record<string, Field>>;

/** A field the answer must have. */
export const need = (kind: Kind, of?: Shape): Field => ({ kind, required: true, of });
/** A field the answer may leave out. */
export const may = (kind: Kind, of?: Shape): Field => ({ kind, of });
/** A field the answer may leave out or send as null. */
export const mayBeNull = (kind: Kind): Field => ({ kind, nullable: true });

const NAMES: Record<Kind, string> = {
  string: 'a string',
  boolean: 'true or false',
  object: 'an object',
  list: 'a list',
};

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function fits(value: unknown, kind: Kind): boolean {
  if (kind === 'list') return Array.isArray(value);
  if (kind === 'object') return isObject(value);
  return typeof value === kind;
}

/** The first way `value` differs from `shape`, said with where it is (`skills[2].name`). */
function difference(value: unknown, shape: Shape, where: string): string | undefined {
  if (!isObject(value)) return `${where || 'the answer'} is ${kindOf(value)}, not an object`;
  for (const [key, field] of Object.entries(shape)) {
    const v = value[key];
    const at = where ? `${where}.${key}` : key;
    if (v === undefined) {
      if (field.required) return `${at} is missing`;
      continue;
    }
    if (v === null && field.nullable) continue;
    if (!fits(v, field.kind)) return `${at} is ${kindOf(v)}, not ${NAMES[field.kind]}`;
    const wrong =
      field.of &&
      (Array.isArray(v)
        ? v.reduce<string | undefined>(
            (found, item, i) => found ?? difference(item, field.of!, `${at}[${i}]`),
            undefined,
          )
        : difference(v, field.of, at));
    if (wrong) return wrong;
  }
  return undefined;
}

/** `value` as the answer it should be, or exit 7 saying how it is not. `where` names it inside a larger answer. */
export function shaped<T>(value: unknown, shape: Shape, where = ''): T {
  const wrong = difference(value, shape, where);
  if (wrong) throw notAsDescribed(wrong);
  return value as T;
}
