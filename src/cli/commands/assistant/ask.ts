// `superagent assistant ask [QUESTION…]`: one question to the market-intelligence assistant (docs/api.md,
// Chat, sessions and the assistant), streamed; with --fields the answer is asked for as JSON and printed parsed.
import { PROVIDERS } from '../../../contract.js';
import { printTable } from '../../../ui/format.js';
import type { Printer } from '../../../ui/printer.js';
import { exitOnInterrupt, messageFrom, oneTurn, parseSessionOption } from '../../chat/one-shot.js';
import { toolCallJson, type PrintedReply } from '../../chat/print-reply.js';
import { assistantSender, type AssistantModel } from '../../chat/send.js';
import { HELD_REPLY_SIZE } from '../../chat/held-reply.js';
import type { Context } from '../../context.js';
import { BadAnswerError, UsageError, rephrased } from '../../../core/errors.js';
import { parseModel, providerFor, warnIfMismatched } from '../shared/providers.js';
import { ProviderNotConnectedError } from '../../../api/errors.js';
import type { Input, Spec } from '../../spec.js';

/** --model and --provider, as both the one-shot question and the REPL take them */
export const MODEL_OPTIONS = {
  model: { type: 'string', description: 'use this model (needs a connected key for its provider)' },
  provider: {
    type: 'string',
    description: 'provider of --model (inferred from the model id when it can be)',
    choices: PROVIDERS,
  },
} as const;

export const spec = {
  description:
    'Ask the market-intelligence assistant one question (from the ' +
    'arguments, or piped on stdin) and print the answer as it ' +
    'streams in. Answers can take minutes: on a terminal a spinner shows the time waited. --fields a,b,c asks for ' +
    'JSON with exactly those keys and prints it parsed (with --array: ' +
    'a list of such objects, a table on a terminal); ' +
    'an answer that is not valid JSON is printed as it came and exits 7. The session id goes to stderr as ' +
    '"Session: ID" (not with --quiet); --session ID continues that conversation. --json prints the API answer. ' +
    `--fields and --json hold the answer whole: one over ${HELD_REPLY_SIZE} exits 7 ` +
    '(without them it is printed as it arrives, at any length).',
  args: [
    { name: 'question', description: 'the question (words are joined by spaces); omit to read stdin', variadic: true },
  ],
  options: {
    fields: { type: 'string', value: 'list', description: 'answer as JSON with these keys, comma-separated (a,b,c)' },
    array: { type: 'boolean', description: 'with --fields: a JSON array of such objects' },
    ...MODEL_OPTIONS,
    session: {
      type: 'string',
      value: 'id',
      description: 'continue this conversation (the id printed after an earlier answer)',
    },
    stream: { type: 'boolean', negatable: true, description: 'wait for the whole answer instead of streaming it' },
  },
  examples: [
    'superagent assistant ask "What is moving SOL today?"',
    'superagent assistant ask "Top 3 perps by funding" --fields symbol,funding_rate,comment --array',
    'superagent assistant ask "BTC outlook" --model gpt-4o --provider openai',
    'echo "Summarise ETH news" | superagent assistant ask --json | jq -r .content',
  ],
} as const satisfies Spec;

const EXAMPLE = "superagent assistant ask 'question'";

export interface Structured {
  fields: string[];
  array: boolean;
}

/** --fields and --array, checked before any request. */
export function structuredFrom(input: { fields?: string; array: boolean }): Structured | undefined {
  if (input.fields === undefined) {
    if (input.array) throw new UsageError('--array needs --fields', 'e.g. --fields symbol,price --array');
    return undefined;
  }
  const fields = [
    ...new Set(
      String(input.fields)
        .split(',')
        .map((f) => f.trim())
        .filter(Boolean),
    ),
  ];
  if (fields.length === 0)
    throw new UsageError('--fields needs at least one field name', 'e.g. --fields symbol,price,outlook');
  if (fields.some((f) => /[\r\n]/.test(f))) throw new UsageError('--fields names must be on one line');
  return { fields, array: input.array };
}

/** --model and --provider, checked against the five providers before any request. */
export function modelFrom(input: { model?: string; provider?: string }): AssistantModel {
  if (input.model === undefined) {
    if (input.provider !== undefined)
      throw new UsageError('--provider needs --model', 'e.g. --model gpt-4o --provider openai');
    return {};
  }
  const model = parseModel(input.model, '--model');
  return { model, provider: providerFor(model, input.provider) };
}

/**
 * The question as sent: with --fields, the structured-output request appended (docs/api.md, Chat,
 * sessions and the assistant).
 */
export function withJsonRequest(question: string, s: Structured | undefined): string {
  if (!s) return question;
  return `${question}\n\nRespond as JSON${s.array ? ' array' : ''} with: ${s.fields.join(', ')}`;
}

/** Parsed JSON content, allowing a Markdown code fence around it; undefined when it is not JSON. */
export function parseJsonContent(content: string): { value: unknown } | undefined {
  const fenced = /^\s*```[\w-]*\s*\n([\s\S]*?)\n?```\s*$/.exec(content);
  try {
    return { value: JSON.parse(fenced ? fenced[1]! : content) };
  } catch {
    return undefined;
  }
}

function cell(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function printStructured(p: Printer, value: unknown, s: Structured): void {
  const rows = Array.isArray(value) ? value : undefined;
  if (s.array && rows && p.stdoutIsTTY && rows.every((r) => r && typeof r === 'object' && !Array.isArray(r))) {
    printTable(
      p,
      s.fields,
      rows.map((r) => s.fields.map((f) => cell((r as Record<string, unknown>)[f]))),
    );
    return;
  }
  p.printJson(value);
}

/** `reply.content` is there: collected whole, for --json or --fields. */
function printAnswer(ctx: Context, reply: PrintedReply, s: Structured | undefined): void {
  const p = ctx.printer;
  const content = reply.content ?? '';
  if (p.json) {
    p.printJson({
      session_id: reply.sessionId ?? null,
      content,
      ...(reply.timestamp ? { timestamp: reply.timestamp } : {}),
      tool_calls: reply.toolCalls.map(toolCallJson),
    });
  }
  if (!s) return;
  const parsed = parseJsonContent(content);
  if (!parsed) {
    if (!p.json) p.data(content);
    throw new BadAnswerError(
      'the assistant did not answer with valid JSON',
      'its answer is printed above as it came; try asking again',
    );
  }
  if (!p.json) printStructured(p, parsed.value, s);
}

export async function run(input: Input<typeof spec>, ctx: Context): Promise<number | void> {
  const args = input.question;
  const structured = structuredFrom(input);
  const model = modelFrom(input);
  if (model.model && model.provider) warnIfMismatched(ctx.printer, model.model, model.provider);
  const sessionId = parseSessionOption(input.session);
  const question = await messageFrom(ctx, args, 'the question', EXAMPLE);
  const { client } = await ctx.api();
  const send = assistantSender(client, model, ctx.timeoutMs('long'), { stream: input.stream });
  return exitOnInterrupt(async () => {
    try {
      await oneTurn(ctx, send, withJsonRequest(question, structured), {
        sessionId,
        // structured answers are printed once parsed, not piece by piece (held whole for that, to a cap)
        echo: !ctx.printer.json && !structured,
        heldFor: ctx.printer.json ? '--json' : '--fields',
        spinner: 'Asking the assistant…',
        spinnerDelayMs: 0,
        present: (reply) => printAnswer(ctx, reply, structured),
      });
    } catch (err) {
      throw await explainProvider(err, model, ctx);
    }
  });
}

/** The embedded service connects a provider's key only when told to: say how. */
async function providerHint(ctx: Context, provider: string): Promise<string> {
  const { connection } = await ctx.api();
  return connection.service === 'embedded'
    ? `start the embedded service with one: superagent server --connect-provider ${provider}`
    : `connect a key for ${provider} to your account, or choose another --model`;
}

async function explainProvider(err: unknown, model: AssistantModel, ctx: Context): Promise<unknown> {
  if (!(err instanceof ProviderNotConnectedError)) return err;
  return rephrased(
    err,
    `${err.message}, which --model ${model.model} needs`,
    await providerHint(ctx, model.provider ?? 'PROVIDER'),
  );
}
