// Where in the file a problem is, and what it is in words: YAML syntax errors and JSON-Schema
// failures (ajv's) turned into `superagents.yaml:12:5: status must be one of: running, paused
// (not 'stoped')`, positions taken from the parsed document's nodes.
import type { ErrorObject } from '../../vendor/ajv.js';
import type { Document, LineCounter } from '../../vendor/yaml.js';
import { UsageError } from '../../core/errors.js';
import { didYouMean } from '../../core/suggest.js';
import { AGENT_FIELDS, PATTERN_MEANING } from './schema.js';

export type Path = Array<string | number>;

export interface Problem {
  /** 1-based */
  line: number;
  col: number;
  message: string;
}

/** What the loader needs of the `yaml` module (loaded on first use), to find nodes. */
export interface YamlTools {
  isMap(node: unknown): boolean;
  isScalar(node: unknown): boolean;
}

export class Locator {
  constructor(
    private readonly doc: Document.Parsed,
    private readonly lines: LineCounter,
    private readonly yaml: YamlTools,
  ) {}

  private pos(offset: number | undefined): { line: number; col: number } {
    return offset === undefined ? { line: 1, col: 1 } : this.lines.linePos(offset);
  }

  /** The start of the value at `path` (of its key when the value is empty), else of its parent. */
  value(path: Path): { line: number; col: number } {
    const node: unknown = path.length === 0 ? this.doc.contents : this.doc.getIn(path, true);
    const start = (node as { range?: number[] } | null | undefined)?.range?.[0];
    if (start !== undefined && !(this.yaml.isScalar(node) && (node as { value: unknown }).value === null))
      return this.pos(start);
    if (path.length === 0) return { line: 1, col: 1 };
    return this.key(path.slice(0, -1), path[path.length - 1]!) ?? this.value(path.slice(0, -1));
  }

  /** The position of the key `name` in the mapping at `path`. */
  key(path: Path, name: string | number): { line: number; col: number } | undefined {
    const map = path.length === 0 ? this.doc.contents : this.doc.getIn(path, true);
    if (!this.yaml.isMap(map)) return undefined;
    const pair = (map as { items: Array<{ key: unknown }> }).items.find(
      (p) => this.yaml.isScalar(p.key) && String((p.key as { value: unknown }).value) === String(name),
    );
    const start = (pair?.key as { range?: number[] } | undefined)?.range?.[0];
    return start === undefined ? undefined : this.pos(start);
  }
}

/** `/agents/0/skills/enabled` → ['agents', 0, 'skills', 'enabled'] */
export function pointerPath(pointer: string): Path {
  if (!pointer) return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

/** How the message names a place: `status`, `skills.enabled[1]`, `agents[2]`. */
export function fieldLabel(path: Path): string {
  const inAgent = path[0] === 'agents' && typeof path[1] === 'number' && path.length > 2 ? path.slice(2) : path;
  if (inAgent.length === 0) return 'the file';
  return inAgent.reduce<string>((s, p) => (typeof p === 'number' ? `${s}[${p}]` : s ? `${s}.${p}` : p), '');
}

const TYPE_WORDS: Record<string, string> = {
  object: 'a mapping (key: value lines)',
  array: 'a list',
  string: 'text',
  number: 'a number',
  boolean: 'true or false',
};

function shown(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : (JSON.stringify(value) ?? String(value));
}

/** One ajv error in words, with the path its position is taken from. */
export function describeSchemaError(e: ErrorObject, data: unknown): { path: Path; key?: string; message: string } {
  const path = pointerPath(e.instancePath);
  const label = fieldLabel(path);
  const value = path.reduce<unknown>((v, p) => (v as Record<string | number, unknown> | undefined)?.[p], data);
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return { path, message: `${path.length ? `${label}: ` : ''}'${String(params.missingProperty)}' is required` };
    case 'additionalProperties': {
      const extra = String(params.additionalProperty);
      const known = path.length > 1 ? (path.at(-1) === 'skills' ? ['enabled', 'disabled'] : AGENT_FIELDS) : ['agents'];
      const guess = didYouMean(extra, known);
      return {
        path,
        key: extra,
        message:
          `unknown field '${extra}'${path.length ? ` in ${label}` : ''} ` +
          `(${guess ?? `expected one of: ${known.join(', ')}`})`,
      };
    }
    case 'enum':
      return {
        path,
        message:
          `${label} must be one of: ${(params.allowedValues as unknown[]).join(', ')} ` +
          `(not ${value === null ? 'empty' : shown(value)})`,
      };
    case 'type': {
      const quote =
        params.type === 'string' && (typeof value === 'number' || typeof value === 'boolean')
          ? ` (quote it: '${String(value)}')`
          : '';
      return {
        path,
        message:
          `${label} must be ${TYPE_WORDS[String(params.type)] ?? String(params.type)}, ` +
          `not ${value === null ? 'empty' : shown(value)}${quote}`,
      };
    }
    case 'minLength':
      return { path, message: `${label} must not be empty` };
    case 'maxLength':
      return {
        path,
        message: `${label} must be at most ${String(params.limit)} characters (it has ${[...String(value)].length})`,
      };
    case 'pattern':
      return {
        path,
        message: `${label} ${PATTERN_MEANING[String(path.at(-1))] ?? `must match ${String(params.pattern)}`}`,
      };
    case 'minProperties':
    case 'maxProperties':
      return {
        path,
        message:
          `${label} must have either 'enabled' or 'disabled' (a list of skill names), ` +
          (e.keyword === 'maxProperties' ? 'not both' : 'and has neither'),
      };
    case 'uniqueItems': {
      // the later of the two is the one to remove
      const later = Math.max(Number(params.i), Number(params.j));
      return { path: [...path, later], message: `${label} lists ${shown((value as unknown[])[later])} twice` };
    }
    default:
      return { path, message: `${label} ${e.message ?? 'is not valid'}` };
  }
}

/** ajv reports a value of the wrong type once per keyword it fails; the first is enough. */
export function schemaProblems(errors: ErrorObject[], data: unknown, where: Locator): Problem[] {
  const seen = new Set<string>();
  const out: Problem[] = [];
  for (const e of errors) {
    const d = describeSchemaError(e, data);
    const at = d.key !== undefined ? (where.key(d.path, d.key) ?? where.value(d.path)) : where.value(d.path);
    const id = `${at.line}:${at.col}:${e.keyword === 'type' || e.keyword === 'enum' ? 'value' : d.message}`;
    if (seen.has(id)) continue;
    seen.add(id);
    out.push({ ...at, message: d.message });
  }
  return out;
}

const SHOWN_PROBLEMS = 10;

export const SCHEMA_HINT = "see 'superagent schema' for what the file may hold";

/** The problems of a file as one usage error: one line each, `FILE:LINE:COL: what`, in file order. */
export function fileError(file: string, problems: Problem[], hint?: string): UsageError {
  const sorted = [...problems].sort((a, b) => a.line - b.line || a.col - b.col);
  const lines = sorted.slice(0, SHOWN_PROBLEMS).map((p) => `${file}:${p.line}:${p.col}: ${p.message}`);
  if (sorted.length > SHOWN_PROBLEMS) lines.push(`… and ${sorted.length - SHOWN_PROBLEMS} more`);
  if (lines.length === 1) return new UsageError(lines[0]!, hint);
  return new UsageError(`${file} has ${sorted.length} problems:\n  ${lines.join('\n  ')}`, hint);
}
