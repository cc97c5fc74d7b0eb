// What the chat and assistant REPLs share: the Context's streams and printer, the reply printer and
// spinner of the one-shot commands, history under the data dir, and a hint for a lost session.
import { SessionNotFoundError } from '../../api/errors.js';
import { dataDir } from '../../config/paths.js';
import { toolDisplay } from '../../ui/tool-calls.js';
import { asksForJson } from '../chat/markdown.js';
import { printReply } from '../chat/print-reply.js';
import type { Context } from '../context.js';
import { WAIT_SPINNER_MS } from '../commands/shared/connect.js';
import { rephrased } from '../../core/errors.js';
import { historyPath } from './history.js';
import type { ReplOptions } from './repl.js';

export type WiredOptions = Pick<
  ReplOptions,
  'input' | 'output' | 'printer' | 'render' | 'waiting' | 'historyFile' | 'explainError' | 'debug' | 'signals' | 'onLine'
>;

/** A session the service does not know (a wrong --session, or one that expired): say how to go on; a failure of the embedded service in its own words. */
function explainReplError(err: unknown, ctx: Context): unknown {
  if (err instanceof SessionNotFoundError) return rephrased(err, err.message, 'type /new to start a fresh conversation');
  return ctx.explainFailure(err);
}

export function wireRepl(ctx: Context, o: { historyKey: string; waitingLabel: string }): WiredOptions {
  const p = ctx.printer;
  return {
    input: ctx.io.stdin,
    output: ctx.io.stderr,
    printer: p,
    render: (events, { message, ...hooks }) => printReply(ctx, events, { ...hooks, markdown: !asksForJson(message), tools: toolDisplay(p, ctx.globals.verbose) }),
    waiting: () => ctx.spinner(o.waitingLabel, { delayMs: WAIT_SPINNER_MS }),
    historyFile: historyPath(dataDir(ctx.env), o.historyKey),
    explainError: (err) => explainReplError(err, ctx),
    debug: ctx.globals.debug,
    signals: ctx.signals,
    onLine: () => ctx.startTurn(),
  };
}
