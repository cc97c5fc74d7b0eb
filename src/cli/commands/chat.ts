// `superagent chat <agent> [MESSAGE…]`: one message and its streamed reply, or (no message, stdin a
// terminal) the interactive REPL.
import { resolveAgent } from './shared/agent-ref.js';
import { exitOnInterrupt, giveIt, messageFrom, oneTurn, parseSessionOption } from '../chat/one-shot.js';
import { toolCallJson } from '../chat/print-reply.js';
import { lastSessions } from '../chat/sessions.js';
import { agentSender } from '../chat/send.js';
import { HELD_REPLY_SIZE } from '../chat/held-reply.js';
import type { Context } from '../context.js';
import { WAIT_SPINNER_MS } from '../../ui/spinner.js';
import { UsageError } from '../../core/errors.js';
import type { Input, Spec } from '../spec.js';

export const spec = {
  description:
    'Send an agent one message (from the arguments, or piped on stdin) and print its reply as it streams in. ' +
    'The session id goes to stderr as "Session: ID" (not with --quiet), so a script can continue the ' +
    'conversation with --session ID, or with -c/--continue (the ' +
    'last conversation with that agent, kept per profile); ' +
    '--json prints { content, session_id, tool_calls } instead of the text, holding the reply whole to do so: ' +
    `one over ${HELD_REPLY_SIZE} exits 7 (without --json a reply of any length is printed as it arrives). ` +
    'With no message and stdin a terminal, starts the interactive ' +
    'REPL, which continues the last conversation unless --new. ' +
    'A reply cut short keeps what arrived and exits 7; Ctrl-C stops the reply and exits 130.',
  args: [
    {
      name: 'agent',
      description: 'uuid, unique id prefix (4+ characters) or unique name',
      required: true,
      complete: 'agent',
    },
    {
      name: 'message',
      description: 'the message (words are joined by spaces); omit to read stdin or start the REPL',
      variadic: true,
    },
  ],
  options: {
    session: {
      type: 'string',
      value: 'id',
      description: 'continue this conversation (the id printed after an earlier reply)',
    },
    continue: { type: 'boolean', short: 'c', description: 'continue the last conversation with this agent' },
    new: { type: 'boolean', description: 'in the REPL: start a fresh conversation, not the last one' },
    stream: { type: 'boolean', negatable: true, description: 'wait for the whole reply instead of streaming it' },
  },
  examples: [
    'superagent chat demo "What is your view on BTC today?"',
    'echo "remember: I prefer low leverage" | superagent chat demo',
    'superagent chat demo --session 3f0c… "and ETH?"',
    'superagent chat demo -c "and what about SOL?"',
    'superagent chat demo --json "status report" | jq -r .content',
    'superagent chat demo',
  ],
} as const satisfies Spec;

const EXAMPLE = "superagent chat AGENT 'message'";

export async function run(input: Input<typeof spec>, ctx: Context): Promise<number | void> {
  const args = [...[input.agent].flat(), ...[input.message].flat()].filter((a): a is string => a !== undefined);
  const [ref, ...words] = args;
  const given = parseSessionOption(input.session);
  const newSession = input.new;
  if ([given !== undefined, input.continue, newSession].filter(Boolean).length > 1)
    throw new UsageError('give one of --session, --continue and --new');
  if (words.length === 0 && ctx.io.stdin.isTTY) {
    // a terminal on stdin and no message: the REPL, if a person may be asked at all
    if (!ctx.canPrompt)
      throw new UsageError(
        `no message: ${giveIt(EXAMPLE)}`,
        'the REPL needs an interactive terminal (no --no-input, no CI=true)',
      );
    if (ctx.printer.json)
      throw new UsageError(
        '--json is for one message, not the REPL',
        `give the message: superagent chat AGENT --json 'message'`,
      );
    if (input.continue)
      throw new UsageError(
        'the REPL continues the last conversation already',
        'leave out --continue, or give --new for a fresh one',
      );
    const { runChatRepl } = await import('../chat/chat-repl.js');
    return runChatRepl(ctx, ref!, { sessionId: given, newSession });
  }
  const message = await messageFrom(ctx, words, 'the message', EXAMPLE);
  const { client } = await ctx.api();
  const agent = await resolveAgent(client, ref!);
  const label = agent.name ?? ref!;
  const send = agentSender(client, agent.agent_id, ctx.timeoutMs('long'), { stream: input.stream, label });
  const last = await lastSessions(ctx);
  const sessionId = given ?? (input.continue ? last.get(agent.agent_id) : undefined);
  if (input.continue && !sessionId)
    ctx.printer.status(ctx.printer.err.dim(`No earlier conversation with ${label} here: starting one.`));
  return exitOnInterrupt(async () => {
    const p = ctx.printer;
    await oneTurn(ctx, send, message, {
      sessionId,
      onSession: (id) => last.set(agent.agent_id, id),
      echo: !p.json,
      spinner: `Waiting for ${label}…`,
      spinnerDelayMs: WAIT_SPINNER_MS,
      present: (reply) => {
        if (p.json)
          p.printJson({
            content: reply.content,
            session_id: reply.sessionId ?? null,
            tool_calls: reply.toolCalls.map(toolCallJson),
          });
      },
    });
  });
}
