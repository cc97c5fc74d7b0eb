// `superagent chat <agent> [MESSAGE…]`: one message and its streamed reply, or (no message, stdin a
// terminal) the interactive REPL.
import { resolveAgent } from './shared/agent-ref.js';
import { exitOnInterrupt, messageFrom, oneTurn, parseSessionOption } from '../chat/one-shot.js';
import { toolCallJson } from '../chat/print-reply.js';
import { agentSender } from '../chat/send.js';
import type { Context } from '../context.js';
import { WAIT_SPINNER_MS } from './shared/connect.js';
import { UsageError } from '../../core/errors.js';
import type { Input, Spec } from '../spec.js';

export const spec = {
  description:
    'Send an agent one message (from the arguments, or piped on stdin) and print its reply as it streams in. ' +
    'The session id goes to stderr as "Session: ID" (not with --quiet), so a script can continue the ' +
    'conversation with --session ID; --json prints { content, session_id } instead of the text. ' +
    'With no message and stdin a terminal, starts the interactive REPL. ' +
    'A reply cut short keeps what arrived and exits 7; Ctrl-C stops the reply and exits 130.',
  args: [
    { name: 'agent', description: 'uuid, unique id prefix (4+ characters) or unique name', required: true, complete: 'agent' },
    { name: 'message', description: 'the message (words are joined by spaces); omit to read stdin or start the REPL', variadic: true },
  ],
  options: {
    session: { type: 'string', value: 'id', description: 'continue this conversation (the id printed after an earlier reply)' },
    new: { type: 'boolean', description: 'start a fresh conversation rather than continue one' },
    stream: { type: 'boolean', negatable: true, description: 'wait for the whole reply instead of streaming it' },
  },
  examples: [
    'superagent chat demo "What is your view on BTC today?"',
    'echo "remember: I prefer low leverage" | superagent chat demo',
    'superagent chat demo --session 3f0c… "and ETH?"',
    'superagent chat demo --json "status report" | jq -r .content',
    'superagent chat demo',
  ],
} as const satisfies Spec;

const USAGE = "as arguments (superagent chat AGENT 'message') or piped on stdin";

export async function run(input: Input<typeof spec>, ctx: Context): Promise<number | void> {
  const args = [...[input.agent].flat(), ...[input.message].flat()].filter((a): a is string => a !== undefined);
  const [ref, ...words] = args;
  const sessionId = parseSessionOption(input.session);
  const newSession = input.new;
  if (sessionId && newSession) throw new UsageError('give --session or --new, not both');
  if (words.length === 0 && ctx.io.stdin.isTTY) {
    // a terminal on stdin and no message: the REPL, if a person may be asked at all
    if (!ctx.canPrompt) throw new UsageError(`no message: give it ${USAGE}`, 'the REPL needs an interactive terminal (no --no-input, no CI=true)');
    const { runChatRepl } = await import('../repl/chat-repl.js');
    return runChatRepl(ctx, ref!, { sessionId, newSession });
  }
  const message = await messageFrom(ctx, words, 'the message', USAGE);
  const { client } = await ctx.api();
  const agent = await resolveAgent(client, ref!);
  const label = agent.name ?? ref!;
  const send = agentSender(client, agent.agent_id, ctx.timeoutMs('long'), { stream: input.stream, label });
  return exitOnInterrupt(async () => {
    const p = ctx.printer;
    await oneTurn(ctx, send, message, {
      sessionId,
      echo: !p.json,
      spinner: `Waiting for ${label}…`,
      spinnerDelayMs: WAIT_SPINNER_MS,
      present: (reply) => {
        if (p.json) p.printJson({ content: reply.content, session_id: reply.sessionId ?? null, tool_calls: reply.toolCalls.map(toolCallJson) });
      },
    });
  });
}
