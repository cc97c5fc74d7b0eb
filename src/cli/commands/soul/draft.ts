// An edit of soul.md that was not uploaded: kept where the next `soul edit` finds it, and the error
// that says so and how to go on (resume it, or upload it as it is).
import type { PrivateFile } from '../../../ui/editor.js';
import type { Context } from '../../context.js';
import { SuperagentError, rephrased } from '../../../core/errors.js';
import { errorLine } from '../../exit-codes.js';
import { fileSlug } from '../shared/agent-fields.js';
import { ourCommand } from '../shared/command-line.js';
import { soulHash, type KeptEdits } from './kept-edits.js';

/** `scout-v2.soul.md`: the agent's name made safe for a file name, else its id's first 8 characters. */
export function draftFileName(name: string, id: string): string {
  return `${fileSlug(name, id)}.soul.md`;
}

/** The exact command that uploads the kept file. */
export function retryCommand(ctx: Context, id: string, file: string): string {
  return ourCommand(ctx, 'soul', 'set', id, '--file', file);
}

export interface Draft {
  file: PrivateFile;
  retry: string;
  ctx: Context;
  /** where an edit ended from outside is kept for the next run, and what it is */
  keeping: { store: KeptEdits; id: string; name: string; ref: string; base: string };
}

/**
 * Files the edit where the next `soul edit` of the agent finds it and offers to resume it: the line
 * saying where it is may go unread (a terminal gone, a script's log). Returns what says so; undefined
 * when the data dir cannot take it, and the edit stays where it is (the line names it).
 */
export function keep(draft: Draft): string | undefined {
  const { store, id, name, ref, base } = draft.keeping;
  try {
    const keptAt = new Date(draft.ctx.clock.now()).toISOString();
    draft.file = store.keep(draft.file, { agentId: id, name, keptAt, base: soulHash(base) });
    draft.retry = retryCommand(draft.ctx, id, draft.file.path);
    return `'${ourCommand(draft.ctx, 'soul', 'edit', ref)}' offers to resume it`;
  } catch {
    return undefined;
  }
}

/** How to go on with a kept edit (`resume`, from `keep`): resume it, or upload it as it is. */
export function goOn(resume: string | undefined, draft: Draft): string {
  return resume ? `${resume}; to upload it as it is: ${draft.retry}` : `upload it with: ${draft.retry}`;
}

/**
 * `err`, once the edit is kept, saying that nothing was uploaded (`uploading`: that the upload was
 * under way, so the service may have it), where the edit is and how to go on.
 */
export function keptError(err: unknown, draft: Draft, uploading = false): unknown {
  const hint = goOn(keep(draft), draft);
  if (!(err instanceof SuperagentError)) {
    // a bug: its report stays as it is, but the way back to the edit is still shown
    // always shown (not only on a TTY): losing the way back to an edit is worse than a noisy stderr
    draft.ctx.printer.stderrWrite(`soul.md not uploaded; your edit is kept in ${draft.file.path} (${hint})\n`);
    return err;
  }
  const what = uploading
    ? ' during the upload; soul.md may have reached the service or not,'
    : '; soul.md not uploaded,';
  return rephrased(err, `${errorLine(err)}${what} your edit is kept in ${draft.file.path}`, hint);
}
