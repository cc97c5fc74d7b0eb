// What the chat and assistant REPLs share: the Context's streams and printer, the reply printer and
// spinner of the one-shot commands, history under the data dir, and a hint for a lost session.
import { dataDir } from '../../config/paths.js';
import { toolDisplay } from '../../ui/tool-calls.js';
import { asksForJson } from '../chat/markdown.js';
import { printReply } from '../chat/print-reply.js';
import type { Context } from '../context.js';
import { WAIT_SPINNER_MS } from '../../ui/spinner.js';
import { historyPath } from './history.js';
import type { ReplOptions } from './repl.js';

export type WiredOptions = Pick<
  ReplOptions,
  | 'input'
  | 'output'
  | 'printer'
  | 'render'
  | 'waiting'
  | 'historyFile'
  | 'explainError'
  | 'debug'
  | 'signals'
  | 'onLine'
>;

/** The REPL on this command's terminal; what a failure means is the caller's to say (it knows the API). */
export function wireRepl(
  ctx: Context,
  o: { historyKey: string; waitingLabel: string; explainError: (err: unknown) => unknown },
): WiredOptions {
  const p = ctx.printer;
  return {
    input: ctx.io.stdin,
    output: ctx.io.stderr,
    printer: p,
    render: (events, { message, ...hooks }) =>
      printReply(ctx, events, {
        ...hooks,
        markdown: !asksForJson(message),
        tools: toolDisplay(p, ctx.globals.verbose),
      }),
    waiting: () => ctx.spinner(o.waitingLabel, { delayMs: WAIT_SPINNER_MS }),
    historyFile: historyPath(dataDir(ctx.env), o.historyKey),
    explainError: o.explainError,
    debug: ctx.globals.debug,
    signals: ctx.signals,
    onLine: () => ctx.startTurn(),
  };
}
