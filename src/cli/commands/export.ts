// `superagent export`: the fleet as it is on the service, written as superagents.yaml and one soul
// file per agent, ready for git; `superagent plan` against a fresh export shows no changes.
import fs from 'node:fs';
import path from 'node:path';
import { RateBudget } from '../../api/rate-budget.js';
import { superagents } from '../../api/superagents.js';
import { LIMITS } from '../../contract.js';
import { makeDir, writeFileAtomic } from '../../core/atomic-write.js';
import { UsageError, asEnvironmentError } from '../../core/errors.js';
import { isInside, landing } from '../fleet/confined.js';
import { exportFiles, type Exported } from '../fleet/export-doc.js';
import { FLEET_FILE } from '../fleet/schema.js';
import type { Context } from '../context.js';
import { ourCommand } from './shared/command-line.js';
import type { Input, Spec } from '../spec.js';

export const spec = {
  description:
    `Write the agents of the service as ${FLEET_FILE} and one soul file per agent (souls/NAME.md) into a directory ` +
    '(default: the current one), for git. Files that would change ' +
    'are overwritten only after you confirm on a terminal, ' +
    'or with --yes; unchanged ones are left as they are. Prints ' +
    'the files written. Bot tokens cannot be read back: add ' +
    'bot_token_env by hand for an agent launched with one.',
  options: {
    dir: {
      type: 'string',
      value: 'dir',
      complete: 'dir',
      description: 'the directory to write into (default: the current directory)',
    },
  },
  examples: [
    'superagent export',
    'superagent export --dir fleet',
    'superagent export --dir fleet --yes && git -C fleet diff',
  ],
} as const satisfies Spec;

/** A regular file's text; anything else is not read (opening a FIFO waits for a writer) and is replaced. */
function readIfThere(file: string): string | undefined {
  try {
    if (!fs.statSync(file).isFile()) return undefined;
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

async function fetchFleet(ctx: Context): Promise<Exported[]> {
  const { client } = await ctx.api({ pacer: new RateBudget(LIMITS.ratePerMinute, ctx.clock) });
  // the list is newest first; the file lists the oldest first
  const records = (await superagents.list(client)).reverse();
  const out: Exported[] = [];
  for (const record of records) {
    const files = await superagents.files(client, record.agent_id);
    const skills = (await superagents.skills(client, record.agent_id)).skills;
    out.push({ record, soul: files.soul_md, skills });
  }
  return out;
}

/** Each file lands in `dir` or below it: a link there (souls/ to elsewhere) would take a write outside. */
function assertInside(dir: string, files: string[], shown: (rel: string) => string): void {
  const root = landing(path.resolve(dir));
  for (const rel of files) {
    const lands = landing(path.resolve(dir, rel));
    if (!isInside(root, lands)) {
      throw new UsageError(
        `cannot write ${shown(rel)}: it leads to ${lands}, outside ${dir}`,
        'export writes only inside the directory it is given',
      );
    }
  }
}

/**
 * Whether files that changed may be overwritten: false when the person at the terminal says no (as
 * no to apply, that is nothing done, exit 0). Without a terminal, --yes is the only consent there is.
 */
async function allowOverwrite(ctx: Context, changed: string[], dir: string | undefined): Promise<boolean> {
  if (changed.length === 0 || ctx.globals.yes) return true;
  const list = changed.join(', ');
  if (!ctx.canPrompt) {
    const again = ourCommand(ctx, 'export', ...(dir !== undefined ? ['--dir', dir] : []), '--yes');
    const hint = `${again} (or --dir a new directory)`;
    throw new UsageError(`--yes required to overwrite ${list} when not running interactively`, hint);
  }
  if (await ctx.prompter.confirm(`Overwrite ${list}?`, false)) return true;
  ctx.printer.status(`Nothing exported: ${list} left as ${changed.length === 1 ? 'it is' : 'they are'}.`);
  return false;
}

export async function run(input: Input<typeof spec>, ctx: Context): Promise<void> {
  const dir = input.dir ?? '.';
  if (!dir.trim()) throw new UsageError('--dir needs a directory');
  const agents = await fetchFleet(ctx);
  // a file without an agent the service could not read: a later apply --prune would destroy it
  ctx.requireEveryRecord();
  const { files } = await exportFiles(agents, FLEET_FILE);
  const shown = (rel: string) => (dir === '.' ? rel : path.join(dir, rel));
  const toWrite = files.filter((f) => readIfThere(path.resolve(dir, f.path)) !== f.text);
  assertInside(
    dir,
    toWrite.map((f) => f.path),
    shown,
  );
  const changed = toWrite.filter((f) => fs.existsSync(path.resolve(dir, f.path))).map((f) => shown(f.path));
  if (!(await allowOverwrite(ctx, changed, input.dir))) return;
  try {
    for (const f of toWrite) {
      const target = path.resolve(dir, f.path);
      makeDir(path.dirname(target), 0o755);
      writeFileAtomic(target, f.text, { mode: 0o644 }); // meant for git: readable like any source file
    }
  } catch (err) {
    throw asEnvironmentError(err) ?? new UsageError(`cannot write into ${dir}: ${(err as Error).message}`);
  }
  const p = ctx.printer;
  if (p.json)
    return p.printJson({
      dir,
      file: shown(FLEET_FILE),
      agents: agents.length,
      written: toWrite.map((f) => shown(f.path)),
      unchanged: files.filter((f) => !toWrite.includes(f)).map((f) => shown(f.path)),
    });
  for (const f of toWrite) p.data(shown(f.path));
  const same = files.length - toWrite.length;
  p.success(
    `Exported ${agents.length} agent${agents.length === 1 ? '' : 's'} to ` +
      `${shown(FLEET_FILE)} (${toWrite.length} file${toWrite.length === 1 ? '' : 's'} ` +
      `written${same ? `, ${same} unchanged` : ''})`,
  );
}
