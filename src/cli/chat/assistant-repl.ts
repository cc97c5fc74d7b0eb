// `superagent assistant` on a terminal: the same REPL as chat, against the market-intelligence assistant.
import type { Context } from '../context.js';
import { runRepl } from '../repl/repl.js';
import { wireRepl } from '../repl/wire.js';
import { assistantSender, type AssistantModel } from './send.js';
import { explainChatError } from './sessions.js';

export interface AssistantReplOptions extends AssistantModel {
  sessionId?: string;
}

export async function runAssistantRepl(ctx: Context, opts: AssistantReplOptions = {}): Promise<number> {
  const { client } = await ctx.api();
  const model = opts.model ? ` (${opts.model}, ${opts.provider})` : '';
  return runRepl({
    ...wireRepl(ctx, {
      historyKey: 'assistant',
      waitingLabel: 'The assistant is working…',
      explainError: (err) => explainChatError(err, ctx),
    }),
    label: 'assistant',
    send: assistantSender(client, { model: opts.model, provider: opts.provider }, ctx.timeoutMs('long')),
    sessionId: opts.sessionId,
    intro: ctx.printer.chatty
      ? `Market-intelligence assistant${model}. Answers can take minutes: ` +
        `Ctrl-C cancels one, /help lists the commands, Ctrl-D leaves.`
      : undefined,
  });
}
