// `superagent soul edit <agent>`: soul.md in the user's editor, uploaded only after a look at the diff,
// never over someone else's change, and never lost: whenever it is not uploaded (declined, refused, a
// conflict, a failure, ended from outside by SIGTERM or SIGHUP, Ctrl-C during the upload), the edit
// is kept where the next `soul edit` of that agent finds it and offers to resume it (kept-edits.ts),
// and the command that uploads it as it is is printed.
import fs from 'node:fs';
import os from 'node:os';
import type { ApiClient } from '../../../api/client.js';
import { superagents } from '../../../api/superagents.js';
import type { StatusResult } from '../../../api/types.js';
import { renderDiff, unifiedDiff } from '../../../ui/diff.js';
import { createPrivateFile, type EditorCommand, type PrivateFile } from '../../../ui/editor.js';
import { outputTerminalGone } from '../../../ui/terminal-gone.js';
import { resolveAgent } from '../shared/agent-ref.js';
import type { Context } from '../../context.js';
import {
  EnvironmentError,
  InterruptedError,
  SuperagentError,
  StateConflictError,
  TerminatedError,
  UsageError,
  asEnvironmentError,
  rephrased,
} from '../../../core/errors.js';
import { ourCommand } from '../shared/command-line.js';
import { readSoul } from '../shared/soul-source.js';
import { KeptEdits, soulHash, type KeptEdit } from './kept-edits.js';
import { draftFileName, goOn, keep, keptError, retryCommand, type Draft } from './draft.js';
import { relativeTime } from '../../../ui/format.js';
import type { Input, Spec } from '../../spec.js';

export const spec = {
  description:
    "Open an agent's soul.md in $VISUAL, else $EDITOR, else vi, " +
    'as a private temporary file. Saved unchanged: nothing ' +
    'is sent. Changed: the diff is shown and, on a terminal, you confirm the upload (--yes skips the question; ' +
    'without a terminal --yes is required). If soul.md changed on the service while the editor was open, nothing ' +
    'is overwritten unless --force. Whenever the edit is not uploaded (declined, a conflict, a failure, ' +
    'Ctrl-C during the upload, SIGTERM, SIGHUP: the terminal closed), it is kept in the data dir and the soul set ' +
    'command that uploads it is printed; ' +
    'the next soul edit of that agent offers to resume it (--yes resumes it); without a terminal it says where ' +
    'the kept edit is and edits the soul.md on the service.',
  args: [
    {
      name: 'agent',
      description: 'uuid, unique id prefix (4+ characters) or unique name',
      required: true,
      complete: 'agent',
    },
  ],
  options: {
    force: { type: 'boolean', description: 'upload even if soul.md changed on the service while the editor was open' },
  },
  examples: [
    'superagent soul edit demo',
    'EDITOR="code --wait" superagent soul edit demo',
    'superagent soul edit demo --yes',
  ],
} as const satisfies Spec;

export { draftFileName } from './draft.js';

type Ending = 'SIGINT' | 'SIGTERM' | 'SIGHUP';

/** A signal that aborts what the command does meanwhile (the reason: its name), until `unlisten`. */
function abortedBy(ctx: Context, endings: Ending[]): { signal: AbortSignal; unlisten(): void } {
  const ended = new AbortController();
  const on = { SIGINT: ctx.signals.onInterrupt, SIGTERM: ctx.signals.onTerminate, SIGHUP: ctx.signals.onHangup };
  const unlisten = endings.map((ending) => on[ending].call(ctx.signals, () => ended.abort(ending)));
  return { signal: ended.signal, unlisten: () => unlisten.forEach((stop) => stop()) };
}

/** The failure a signal that ended the command stands for (its exit code). */
function endedBy(ending: Ending): SuperagentError {
  return ending === 'SIGINT' ? new InterruptedError() : new TerminatedError(ending);
}

/** Prints a diff: stdout is its place, but with --json stdout holds only the API's answer. */
async function showDiff(
  ctx: Context,
  before: string,
  after: string,
  labels: { old: string; new: string },
): Promise<void> {
  const p = ctx.printer;
  const lines = await unifiedDiff(before, after, labels);
  if (p.json) p.stderrWrite(renderDiff(lines, p.err));
  else p.write(renderDiff(lines, p.out));
}

function privateFile(ctx: Context, fileName: string, content: string): PrivateFile {
  const tmpDir = ctx.env.TMPDIR || os.tmpdir();
  try {
    return createPrivateFile(fileName, content, tmpDir);
  } catch (err) {
    const refused = asEnvironmentError(err);
    const what = 'cannot create a temporary file for the editor';
    const writable = 'set TMPDIR to a writable directory';
    if (!refused) throw new UsageError(`${what}: ${(err as Error).message}`, writable);
    const hint = refused.full ? 'free some space on it, or set TMPDIR to another directory' : writable;
    throw new EnvironmentError(tmpDir, refused.code, `${what} in`, hint);
  }
}

/**
 * An edit of this agent kept by an earlier run: on a terminal, offered (yes: resumed, its file taken
 * to edit; no: discarded); without one, named, and left for a person to decide (a script's editor
 * would apply its change again to the half-made one). The file to edit, or undefined for a fresh one.
 */
async function resumed(
  ctx: Context,
  store: KeptEdits,
  kept: KeptEdit,
  agent: { id: string; name: string; ref: string; soul: string },
): Promise<PrivateFile | undefined> {
  const p = ctx.printer;
  const resume = ourCommand(ctx, 'soul', 'edit', agent.ref);
  if (!ctx.canPrompt) {
    p.warn(
      `An edit of ${agent.name}'s soul.md that was not uploaded is kept in ${kept.file} (kept ${kept.keptAt}; ` +
        `'${resume}' on a terminal offers to resume it; ` +
        `to upload it as it is: ${retryCommand(ctx, agent.id, kept.file)})`,
    );
    return undefined;
  }
  const when = relativeTime(kept.keptAt, ctx.clock.now());
  p.status(`An edit of ${agent.name}'s soul.md that was not uploaded was kept ${when}: ${kept.file}`);
  if (kept.base !== soulHash(agent.soul)) {
    p.warn(
      `The soul.md of ${agent.name} changed on the service since that edit began: ` +
        'the diff before the upload is against the one it has now.',
    );
  }
  const question = `Resume your edit of ${agent.name}'s soul.md, kept ${when}? (no: discard it)`;
  if (!ctx.globals.yes && !(await ctx.prompter.confirm(question, true))) {
    store.discard(kept);
    p.status('Discarded the kept edit.');
    return undefined;
  }
  try {
    return store.claim(kept, ctx.env.TMPDIR || undefined);
  } catch (err) {
    p.warn(`Cannot resume the kept edit (${(err as Error).message}): editing the soul.md on the service instead`);
    return undefined;
  }
}

async function soulOf(client: ApiClient, id: string, signal?: AbortSignal): Promise<string> {
  const files = await superagents.files(client, id, { signal });
  return typeof files.soul_md === 'string' ? files.soul_md : '';
}

/**
 * Runs the editor; on failure the file is kept only if it holds changes. SIGTERM or SIGHUP meanwhile
 * stops the editor (with that signal) and keeps the file whatever it holds (the editor may leave its
 * own rescue file beside it). SIGHUP is listened for only while the editor holds the terminal: a
 * listener at any other time would undo `nohup`.
 */
async function edit(ctx: Context, editor: EditorCommand, draft: Draft, original: string): Promise<Buffer | undefined> {
  const ended = abortedBy(ctx, ['SIGTERM', 'SIGHUP']);
  const hungUp = new AbortController();
  const signal = AbortSignal.any([ended.signal, hungUp.signal]);
  // the terminal closed: the editor may have ended of it (or saved and exited) before the SIGHUP is seen here
  const stopped = () => {
    if (!signal.aborted && outputTerminalGone(ctx.io)) hungUp.abort('SIGHUP');
    return signal.aborted;
  };
  const ending = () => endedBy(signal.reason as Ending);
  try {
    await ctx.editor.open(draft.file.path, signal);
    if (stopped()) throw ending();
  } catch (err) {
    if (stopped()) throw keptError(ending(), draft);
    const changed = readIfThere(draft.file.path);
    if (changed && !changed.equals(Buffer.from(original))) throw keptError(err, draft);
    draft.file.remove();
    if (err instanceof SuperagentError) throw rephrased(err, `${err.message}; nothing uploaded`);
    throw err;
  } finally {
    ended.unlisten();
  }
  return readIfThere(draft.file.path);
}

function readIfThere(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Asks on a terminal; without one, --yes is what allows the upload. */
async function confirmed(ctx: Context, name: string, draft: Draft): Promise<boolean> {
  if (ctx.globals.yes) return true;
  if (!ctx.canPrompt) throw keptError(new UsageError('--yes required to upload when not running interactively'), draft);
  try {
    return await ctx.prompter.confirm(`Upload this soul.md to ${name}?`, true);
  } catch (err) {
    throw keptError(err, draft);
  }
}

/**
 * Checks that the service still has the soul the edit started from (unless --force), then uploads.
 * Ctrl-C, SIGTERM or a hang-up meanwhile cancels it and keeps the edit for the next run, like any
 * edit not uploaded (the draft would otherwise stay in TMPDIR, found by nobody). SIGHUP is listened
 * for only with a terminal there: `nohup` leaves none, and the hang-up it ignores must not stop this.
 */
async function upload(
  ctx: Context,
  client: ApiClient,
  id: string,
  name: string,
  original: string,
  edited: string,
  draft: Draft,
  force: boolean,
): Promise<StatusResult | undefined> {
  const terminal = ctx.io.stdin.isTTY || ctx.io.stdout.isTTY || ctx.io.stderr.isTTY;
  const ended = abortedBy(ctx, terminal ? ['SIGINT', 'SIGTERM', 'SIGHUP'] : ['SIGINT', 'SIGTERM']);
  let theirs: string | undefined;
  try {
    if (!force) theirs = await soulOf(client, id, ended.signal);
    if (theirs === undefined || theirs === original) return await superagents.updateSoul(client, id, edited, ended);
  } catch (err) {
    if (ended.signal.aborted) throw keptError(endedBy(ended.signal.reason as Ending), draft, true);
    throw keptError(err, draft);
  } finally {
    ended.unlisten();
  }
  if (theirs === edited) return undefined; // someone made the very same change
  const resume = keep(draft);
  await showDiff(ctx, theirs, edited, {
    old: `${name}/soul.md (theirs: changed on the service)`,
    new: `${draft.file.path} (yours)`,
  });
  throw new StateConflictError(
    `the soul.md of ${name} changed on the service while the editor ` +
      `was open; nothing uploaded, your edit is kept in ${draft.file.path}`,
    `the diff above shows theirs against yours; ${resume ? `${resume}; ` : ''}` +
      `to overwrite theirs with yours: ${draft.retry} (soul edit --force skips this check)`,
  );
}

export async function run(input: Input<typeof spec>, ctx: Context): Promise<void> {
  const ref = input.agent;
  const editor = ctx.editor.command(); // a VISUAL or EDITOR that cannot be split: exit 2 before any request
  if (editor.source === 'default' && !(ctx.io.stdin.isTTY && ctx.io.stdout.isTTY)) {
    // vi started into a pipe helps nobody; an editor named on purpose (a script's) may run anyway
    throw new UsageError(
      'no terminal to run the default editor (vi) on',
      "set VISUAL or EDITOR to an editor that needs none, or use 'superagent soul set AGENT --file PATH'",
    );
  }
  const { client } = await ctx.api();
  const agent = await resolveAgent(client, ref!);
  const id = agent.agent_id;
  const name = agent.name ?? (await superagents.get(client, id)).name;
  const original = await soulOf(client, id);
  const store = await KeptEdits.of(ctx);
  const earlier = store.newest(id);
  const resumedFile = earlier && (await resumed(ctx, store, earlier, { id, name, ref: ref!, soul: original }));
  const file = resumedFile ?? privateFile(ctx, draftFileName(name, id), original);
  const keeping = { store, id, name, ref: ref!, base: original };
  const draft: Draft = { file, retry: retryCommand(ctx, id, file.path), ctx, keeping };
  const p = ctx.printer;

  const bytes = await edit(ctx, editor, draft, original);
  if (bytes === undefined) {
    draft.file.remove();
    throw new UsageError(`the editor removed ${file.path}; nothing uploaded`);
  }
  if (bytes.equals(Buffer.from(original))) {
    draft.file.remove();
    p.status(`No changes to the soul.md of ${name}; nothing uploaded.`);
    return;
  }
  if (bytes.toString('utf8').trim() === '') {
    draft.file.remove();
    throw new UsageError(
      'the edited soul.md is empty; nothing uploaded',
      `run '${ourCommand(ctx, 'soul', 'edit', ref!)}' again to start over`,
    );
  }
  let edited: string;
  try {
    edited = await readSoul(ctx, file.path, 'the edited file'); // UTF-8 and at most 256 KiB
  } catch (err) {
    throw keptError(err, draft);
  }

  await showDiff(ctx, original, edited, { old: `${name}/soul.md (on the service)`, new: `${name}/soul.md (edited)` });
  if (!(await confirmed(ctx, name, draft))) {
    const hint = goOn(keep(draft), draft);
    // the path once, in the command that uploads it: it is long, and twice made the line hard to read
    p.warn(`Not uploaded; your edit is kept (${hint})`);
    return;
  }
  const result = await upload(ctx, client, id, name, original, edited, draft, input.force);
  draft.file.remove();
  if (result === undefined) {
    p.status(`The soul.md of ${name} on the service already has these changes; nothing uploaded.`);
    return;
  }
  if (p.json) return p.printJson(result);
  p.success(`Updated the soul.md of ${name}`);
}
