// `superagent model <agent> [MODEL] [--provider P]`: show the model, or change it.
import { superagents } from '../../api/superagents.js';
import { PROVIDERS, type Provider } from '../../contract.js';
import { orUnknown, printFields, tsvRow } from '../../ui/format.js';
import { shellWord } from '../../ui/shell-word.js';
import { resolveAgent } from './shared/agent-ref.js';
import type { Context } from '../context.js';
import { UsageError } from '../../core/errors.js';
import { inferProvider, parseModel, parseProvider, providerNeeded, warnIfMismatched } from './shared/providers.js';
import type { Input, Spec } from '../spec.js';

export const spec = {
  description:
    "Without MODEL, show the agent's model and provider (piped: one line, the model id; --json for the provider). " +
    'With MODEL, switch to it; the provider is sent too: --provider, else inferred from the model id ' +
    '(gpt-… openai, claude-… anthropic, grok-… xai, vendor/model openrouter), else asked for on a terminal; ' +
    'piped, it prints the model set, the line `model AGENT` prints next (--json: the API answer).',
  args: [
    {
      name: 'agent',
      description: 'uuid, unique id prefix (4+ characters) or unique name',
      required: true,
      complete: 'agent',
    },
    { name: 'model', description: 'the model id to switch to, as the provider spells it' },
  ],
  options: {
    provider: { type: 'string', description: 'model provider of MODEL', choices: PROVIDERS },
  },
  examples: [
    'superagent model scout',
    'superagent model scout gpt-4o',
    'superagent model scout llama-3.3-70b --provider venice',
  ],
} as const satisfies Spec;

async function show(ref: string, ctx: Context): Promise<void> {
  const { client } = await ctx.api();
  const { agent_id } = await resolveAgent(client, ref);
  const a = await superagents.get(client, agent_id);
  const p = ctx.printer;
  // a field the service did not send is left out, so unknown is never confused with none
  if (p.json) return p.printJson({ agent_id: a.agent_id, model: a.model, model_provider: a.model_provider });
  // the model alone: the get answer rarely carries the provider, and an empty last value would end the row in a tab
  if (!p.stdoutIsTTY) return p.data(tsvRow([a.model ?? '']));
  printFields(p, [
    ['Model', orUnknown(p, a.model)],
    ['Provider', orUnknown(p, a.model_provider)],
  ]);
}

/** --provider, else the model's inferred provider, else asked on a terminal; exit 2 naming --provider otherwise. */
async function providerOf(model: string, given: unknown, ctx: Context): Promise<Provider> {
  if (given !== undefined) return parseProvider(given);
  const inferred = inferProvider(model);
  if (inferred) return inferred;
  if (!ctx.canPrompt) throw providerNeeded(model);
  return ctx.prompter.choice(`Provider of ${model}`, PROVIDERS, PROVIDERS[0]);
}

async function change(ref: string, modelArg: string, providerArg: unknown, ctx: Context): Promise<void> {
  const model = parseModel(modelArg);
  const provider = await providerOf(model, providerArg, ctx);
  warnIfMismatched(ctx.printer, model, provider);
  const { client } = await ctx.api();
  const agent = await resolveAgent(client, ref);
  const result = await superagents.updateModel(client, agent.agent_id, { model, model_provider: provider });
  const p = ctx.printer;
  if (p.json) return p.printJson(result);
  // the model set, in the shape `model AGENT` prints it: what a script asked for, not the agent's id
  if (!p.stdoutIsTTY) p.data(tsvRow([model]));
  p.success(`${agent.name ?? agent.agent_id.slice(0, 8)} now uses ${model} (${provider})`);
}

export async function run(input: Input<typeof spec>, ctx: Context): Promise<void> {
  const ref = input.agent;
  const model = input.model;
  if (model === undefined) {
    if (input.provider !== undefined)
      throw new UsageError(
        '--provider needs a MODEL to switch to',
        `e.g. superagent model ${shellWord(ref!)} gpt-4o --provider openai`,
      );
    return show(ref!, ctx);
  }
  return change(ref!, model, input.provider, ctx);
}
