// Reading superagents.yaml: parsed with `yaml` (positions kept), validated with ajv against the
// schema `superagent schema` prints, names checked for uniqueness, soul files read. Every problem is
// reported at once, each as `FILE:LINE:COL: what is wrong`, before any request.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { agentNameKey, type Provider } from '../../contract.js';
import { SuperagentError, UsageError } from '../../core/errors.js';
import type { Context } from '../context.js';
import { closeInput, inputStream, mayNeverEnd, openInput } from '../commands/shared/input-file.js';
import { readSoul } from '../commands/shared/soul-source.js';
import { boundedRead, readAtMost } from '../commands/shared/stdin.js';
import { soulPath } from './confined.js';
import { Locator, SCHEMA_HINT, fileError, schemaProblems, type Path, type Problem } from './problems.js';
import { FLEET_FILE, FLEET_SCHEMA } from './schema.js';

export type SkillsWanted = { enabled: string[] } | { disabled: string[] };

export interface DesiredAgent {
  name: string;
  description?: string;
  model?: string;
  provider?: Provider;
  /** the path as written, and the soul.md it holds */
  soul?: { path: string; text: string };
  skills?: SkillsWanted;
  status?: 'running' | 'paused';
  bot_token_env?: string;
  /** `superagents.yaml:12:5`: where the agent (or one of its fields) is in the file */
  at(field?: string | Path): string;
}

export interface FleetFile {
  /** as the user named it (messages), and where it is */
  shown: string;
  path: string;
  agents: DesiredAgent[];
}

type RawAgent = Omit<DesiredAgent, 'soul' | 'at'> & { soul?: string };

/** The most a fleet file is read: ten agents with souls written inline at the soul limit fit many times over. */
const FLEET_FILE_BYTES = 4 * 1024 * 1024;

const tooLarge = (shown: string, size: string) =>
  new UsageError(`${shown} is ${size}: a fleet file is far smaller`, 'give the superagents.yaml meant with -f FILE');

/**
 * The fleet file's text. Opened without waiting on a writer: a FIFO given with -f (`<(generate)`, or
 * one nobody writes to) is read bounded by --timeout, or else the default time-out.
 */
async function readText(ctx: Context, file: string, shown: string): Promise<string> {
  let stream: Readable | undefined;
  try {
    const opened = await openInput(file);
    if (opened.stat.isDirectory()) {
      closeInput(opened);
      throw new UsageError(`${shown} is a directory, not a file`);
    }
    if (opened.stat.isFile() && opened.stat.size > FLEET_FILE_BYTES) {
      closeInput(opened);
      throw tooLarge(shown, `${Math.ceil(opened.stat.size / 1024).toLocaleString('en-US')} KiB`);
    }
    stream = inputStream(opened);
    const reading = readAtMost(stream, FLEET_FILE_BYTES);
    const release = () => stream!.destroy();
    const seconds = ctx.globals.timeout ?? ctx.timeoutMs() / 1000;
    const bytes = await (mayNeverEnd(opened) ? boundedRead(ctx, shown, reading, release, seconds) : reading);
    if (bytes.length > FLEET_FILE_BYTES) throw tooLarge(shown, `over ${FLEET_FILE_BYTES / 1024 / 1024} MiB`);
    return bytes.toString('utf8');
  } catch (err) {
    if (err instanceof SuperagentError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      throw new UsageError(
        `${shown} not found`,
        `give another file with -f FILE, or write one from your agents with 'superagent export'`,
      );
    }
    if (code === 'EISDIR') throw new UsageError(`${shown} is a directory, not a file`);
    throw new UsageError(`cannot read ${shown}: ${(err as Error).message}`);
  } finally {
    stream?.destroy();
  }
}

let validator:
  Promise<(data: unknown) => { ok: boolean; errors: import('../../vendor/ajv.js').ErrorObject[] }> | undefined;

/** ajv compiles the schema once per process. */
function validate() {
  validator ??= import('../../vendor/ajv.js').then(({ Ajv }) => {
    const check = new Ajv({ allErrors: true, strict: true }).compile(FLEET_SCHEMA);
    return (data: unknown) => ({ ok: check(data) as boolean, errors: check.errors ?? [] });
  });
  return validator;
}

/** Two agents of one name: the second is the problem (names match in any case or Unicode form, as references do). */
function duplicateNames(agents: RawAgent[], where: Locator): Problem[] {
  const first = new Map<string, number>();
  const out: Problem[] = [];
  agents.forEach((a, i) => {
    const key = agentNameKey(a.name);
    const earlier = first.get(key);
    if (earlier === undefined) return void first.set(key, i);
    const was = where.value(['agents', earlier, 'name']);
    out.push({
      ...where.value(['agents', i, 'name']),
      message:
        `the name '${a.name}' is already used at line ${was.line} ` +
        `(agents are matched by name, so names must be unique)`,
    });
  });
  return out;
}

/**
 * Each soul file, a regular file in the fleet file's directory or below it, read as `soul set --file`
 * reads one (UTF-8, not empty, at most 256 KiB).
 */
async function readSouls(
  ctx: Context,
  agents: RawAgent[],
  dir: string,
  where: Locator,
): Promise<{ souls: Array<string | undefined>; problems: Problem[] }> {
  const problems: Problem[] = [];
  const realDir = await fs.realpath(dir);
  const souls = await Promise.all(
    agents.map(async (a, i) => {
      if (a.soul === undefined) return undefined;
      let real: string | undefined;
      try {
        const soul = await soulPath(dir, realDir, a.soul);
        real = soul.path;
        return await readSoul(ctx, soul.path, 'soul', soul.confirm);
      } catch (err) {
        if (!(err instanceof SuperagentError)) throw err;
        // readSoul names the file by the path it was given: say it as the fleet file does
        const why =
          real === undefined ? err.message : err.message.replace(`soul file '${real}'`, () => `soul file '${a.soul}'`);
        problems.push({
          ...where.value(['agents', i, 'soul']),
          message: `${why} (soul paths are relative to the file)`,
        });
        return undefined;
      }
    }),
  );
  return { souls, problems };
}

/** Parses and checks `file` (default ./superagents.yaml); throws a usage error listing every problem. */
export async function loadFleetFile(ctx: Context, given: string | undefined): Promise<FleetFile> {
  const shown = given ?? FLEET_FILE;
  if (!shown.trim()) throw new UsageError('-f needs a file name');
  const file = path.resolve(shown);
  const text = await readText(ctx, file, shown);
  const yaml = await import('../../vendor/yaml.js');
  const lines = new yaml.LineCounter();
  const doc = yaml.parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    throw fileError(
      shown,
      doc.errors.map((e) => ({ ...lines.linePos(e.pos[0]), message: yamlMessage(e.message) })),
      'check the indentation and brackets there (the README has a complete example)',
    );
  }
  const where = new Locator(doc, lines, yaml);
  const data = doc.toJS({ maxAliasCount: 100 }) as unknown;
  const result = (await validate())(data);
  if (!result.ok) {
    if (data === null || data === undefined)
      throw fileError(
        shown,
        [{ line: 1, col: 1, message: "the file is empty: it needs an 'agents:' list" }],
        SCHEMA_HINT,
      );
    throw fileError(shown, schemaProblems(result.errors, data, where), SCHEMA_HINT);
  }
  const raw = (data as { agents: RawAgent[] }).agents;
  const { souls, problems } = await readSouls(ctx, raw, path.dirname(file), where);
  problems.push(...duplicateNames(raw, where));
  if (problems.length > 0) throw fileError(shown, problems);
  const at = (i: number) => (field?: string | Path) => {
    const sub = field === undefined ? [] : Array.isArray(field) ? field : [field];
    const p = where.value(['agents', i, ...sub]);
    return `${shown}:${p.line}:${p.col}`;
  };
  return {
    shown,
    path: file,
    agents: raw.map((a, i) => ({
      ...a,
      soul: a.soul === undefined ? undefined : { path: a.soul, text: souls[i]! },
      at: at(i),
    })),
  };
}

/** yaml's own words, first line only, without the position it repeats. */
function yamlMessage(message: string): string {
  return message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
}
