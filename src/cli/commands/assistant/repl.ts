// `superagent assistant` (no subcommand): the assistant REPL, on a terminal or over piped lines.
import { parseSessionOption } from '../../chat/one-shot.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../../core/errors.js';
import type { Input, Spec } from '../../spec.js';
import { MODEL_OPTIONS, modelFrom } from './ask.js';

export const spec = {
  description:
    'Talk with the market-intelligence assistant: each line you ' +
    'type is a question, answered as it streams in, and the ' +
    'conversation continues from one question to the next. Slash ' +
    'commands: /help, /new, /session, /exit. A line ending ' +
    'in \\ continues on the next; """ starts and ends a block of lines. Ctrl-C cancels an answer; Ctrl-D leaves. ' +
    'Piped input is read the same way, each line a question (`echo "Any unlocks?" | superagent assistant`); ' +
    "for one question in a script, 'superagent assistant ask'.",
  options: {
    ...MODEL_OPTIONS,
    session: {
      type: 'string',
      value: 'id',
      description: 'continue this conversation (the id shown by /session or after an answer)',
    },
  },
  examples: [
    'superagent assistant',
    'superagent assistant --model gpt-4o --provider openai',
    'superagent assistant ask "What is moving SOL today?"',
  ],
} as const satisfies Spec;

export async function run(input: Input<typeof spec>, ctx: Context): Promise<number> {
  const model = modelFrom(input);
  const sessionId = parseSessionOption(input.session);
  // piped input is read as typed lines are, each line a question (no person needed for that)
  const piped = !ctx.io.stdin.isTTY;
  if (!piped && !ctx.canPrompt) {
    const why =
      ctx.io.stdin.isTTY && ctx.io.stderr.isTTY ? 'is interactive (and --no-input is set)' : 'needs a terminal';
    throw new UsageError(
      `the assistant REPL ${why}`,
      "use 'superagent assistant ask QUESTION', or pipe the question to it",
    );
  }
  if (ctx.printer.json)
    throw new UsageError(
      '--json is for one question, not the REPL',
      `ask it: superagent assistant ask --json 'question'`,
    );
  const { runAssistantRepl } = await import('../../chat/assistant-repl.js');
  return runAssistantRepl(ctx, { ...model, sessionId });
}
