// `superagent launch`: a new SuperAgent. Everything is checked before the request; on a terminal
// what is missing is asked for, elsewhere a missing --name is a usage error.
import { superagents } from '../../api/superagents.js';
import { AGENT_LIMIT_HINT, AgentLimitError, ApiError } from '../../api/errors.js';
import type { AgentRecord, LaunchBody, LaunchResult } from '../../api/types.js';
import {
  BOT_TOKEN_PATTERN,
  DEFAULT_MODEL,
  DEFAULT_MODEL_BY_PROVIDER,
  DEFAULT_PROVIDER,
  LIMITS,
  PROVIDERS,
  type Provider,
} from '../../contract.js';
import { botField, orUnknown, printFields, statusWord, unknown } from '../../ui/format.js';
import { maskSecrets } from '../../ui/mask.js';
import { shellWord } from '../../ui/shell-word.js';
import { agentNameProblem, parseAgentName, parseDescription } from './shared/agent-fields.js';
import { assertNameFree, namingTheAgent } from './shared/agent-ref.js';
import { assertNoTwins, assertTurnHeld, inLaunchTurn, TwinAgentsError } from './shared/launch-lock.js';
import { ourCommand } from './shared/command-line.js';
import { withStop } from './shared/stop.js';
import type { Context } from '../context.js';
import { rephrased, UsageError } from '../../core/errors.js';
import {
  launchModel,
  parseModel,
  parseProvider,
  providerNeeded,
  warnIfMismatched,
  type ModelChoice,
} from './shared/providers.js';
import { targetProfile } from './shared/settings.js';
import { readSoul } from './shared/soul-source.js';
import { readSecretStdin } from './shared/stdin.js';
import type { Input, Spec } from '../spec.js';

export const spec = {
  description:
    'Launch a new SuperAgent. On a terminal, launch alone asks for the ' +
    'name, provider and model; elsewhere --name is required. ' +
    "A model and its provider are always sent: --model/--provider, else the profile's model/provider settings " +
    `(superagent config set model …), else ${DEFAULT_MODEL} (${DEFAULT_PROVIDER}). ` +
    'The provider is inferred from the model id when it can be (gpt-… openai, ' +
    'claude-… anthropic, grok-… xai, vendor/model openrouter). ' +
    'Piped, prints the new agent id alone.',
  options: {
    name: { type: 'string', description: 'the agent name (1-100 characters)' },
    model: {
      type: 'string',
      description: `model id as the provider spells it (default: the profile's model, else ${DEFAULT_MODEL})`,
    },
    provider: { type: 'string', choices: PROVIDERS, complete: 'provider', description: 'model provider' },
    soulFile: {
      type: 'string',
      value: 'path',
      complete: 'file',
      description: 'soul.md to start with (a file, or - for standard input; up to 256 KiB)',
    },
    description: { type: 'string', value: 'text', description: 'a description (up to 500 characters)' },
    botTokenStdin: { type: 'boolean', description: 'read a Telegram bot token from standard input' },
    allowDuplicateName: {
      type: 'boolean',
      description:
        'skip the check that no live agent has that name ' +
        '(a service that keeps names unique, as the embedded one does, still refuses it: exit 6)',
    },
  },
  examples: [
    'superagent launch',
    'superagent launch --name scout --model gpt-4o',
    'superagent launch --name scout --soul-file soul.md --description "BTC swing trader"',
    'superagent launch --name scout --bot-token-stdin < bot-token.txt',
    'id=$(superagent launch --name scout)',
  ],
} as const satisfies Spec;

type LaunchInput = Input<typeof spec>;

interface Wanted {
  name?: string;
  model?: string;
  provider?: Provider;
  description?: string;
}

/** Flag values, checked; nothing read or asked yet. */
function fromFlags(input: LaunchInput): Wanted {
  return {
    name: input.name !== undefined ? parseAgentName(input.name) : undefined,
    description: input.description !== undefined ? parseDescription(input.description) : undefined,
    provider: input.provider !== undefined ? parseProvider(input.provider) : undefined,
    model: input.model !== undefined ? parseModel(input.model, '--model') : undefined,
  };
}

/** Without a person to ask, what is missing must fail now, before stdin is read or anything is sent. */
function requireComplete(w: Wanted, choice: ReturnType<typeof launchModel>): void {
  if (w.name === undefined)
    throw new UsageError('--name is required when not running interactively', 'e.g. superagent launch --name scout');
  if (!choice.provider) throw providerNeeded(choice.model);
}

async function readBotToken(ctx: Context): Promise<string> {
  const example = 'superagent launch --name NAME --bot-token-stdin < token.txt';
  const token = (await readSecretStdin(ctx, 'the bot token', `pipe in the token alone: ${example}`)).trim();
  if (!token) throw new UsageError('no bot token on standard input', `pipe it in: ${example}`);
  // never echo what was read: it may be a real token with a typo
  if (!BOT_TOKEN_PATTERN.test(token)) {
    throw new UsageError(
      'the bot token on standard input is not a valid Telegram bot token',
      'expected <digits>:<30+ characters of A-Z, a-z, 0-9, _ or -> from @BotFather',
    );
  }
  return token;
}

/**
 * Asks for the name; `launch` alone is the wizard, which also asks for the provider and model
 * (nothing chosen by flags or profile, no --yes). With --name given the defaults are taken unasked:
 * flags mean the user said what they wanted (`launch --name demo` is the README's first command).
 */
async function ask(
  ctx: Context,
  w: Wanted,
  choice: ReturnType<typeof launchModel>,
  taken: (name: string) => string | undefined,
): Promise<{ name: string; model: string; provider: Provider }> {
  const name =
    w.name ?? (await ctx.prompter.text('Name', { validate: (v) => agentNameProblem(v) ?? taken(v) ?? true })).trim();
  let { model, provider } = choice;
  if (!provider) provider = await ctx.prompter.choice(`Provider of ${model}`, PROVIDERS, DEFAULT_PROVIDER);
  else if (choice.source === 'default' && !ctx.globals.yes && w.name === undefined) {
    provider = await ctx.prompter.choice('Provider', PROVIDERS, provider);
    model = parseModel(
      await ctx.prompter.text('Model', {
        default: DEFAULT_MODEL_BY_PROVIDER[provider],
        validate: (v) => (v.trim() ? true : 'required'),
      }),
    );
  }
  return { name, model, provider };
}

async function body(input: LaunchInput, ctx: Context): Promise<LaunchBody> {
  const soulFile = input.soulFile;
  if (soulFile === '-' && input.botTokenStdin) {
    throw new UsageError(
      '--soul-file - and --bot-token-stdin cannot both read standard input',
      'give the soul as a file path',
    );
  }
  const wanted = fromFlags(input);
  const choice = launchModel(wanted, targetProfile(ctx, ctx.config.read()).profile);
  if (!ctx.canPrompt) requireComplete(wanted, choice);
  const soul = soulFile !== undefined ? await readSoul(ctx, soulFile, '--soul-file') : undefined;
  const token = input.botTokenStdin ? await readBotToken(ctx) : undefined;
  const chosen: Pick<ModelChoice, 'model' | 'provider'> & { name: string } = ctx.canPrompt
    ? await ask(ctx, wanted, choice, await nameCheck(input, ctx, wanted))
    : { name: wanted.name!, model: choice.model, provider: choice.provider! };
  warnIfMismatched(ctx.printer, chosen.model, chosen.provider);
  return {
    name: chosen.name,
    model: chosen.model,
    model_provider: chosen.provider,
    description: wanted.description,
    soul_md: soul,
    telegram_bot_token: token,
  };
}

/** What is wrong with a name typed at the prompt, if anything. */
type NameProblem = (name: string) => string | undefined;

/**
 * Before any question, the account's agents: one at the limit, or a --name a live agent has, is told
 * now, not after the questions; the answer to the name question is checked on them too. (They are
 * checked again when the launch's turn comes: launch() below.)
 */
async function nameCheck(input: LaunchInput, ctx: Context, wanted: Wanted): Promise<NameProblem> {
  const agents = await liveAgents(ctx, input.allowDuplicateName ? undefined : wanted.name);
  if (input.allowDuplicateName) return () => undefined;
  return (name) => {
    try {
      assertNameFree(agents, name);
      return undefined;
    } catch (err) {
      return (err as Error).message;
    }
  };
}

/**
 * The live agents, refused (as the service would refuse the launch: 403) when there is no room for one
 * more. A `name` a live agent has is refused first: freeing a slot would not make that launch work.
 */
async function liveAgents(ctx: Context, name?: string): Promise<AgentRecord[]> {
  const { client } = await ctx.api();
  const agents = await superagents.list(client);
  if (name !== undefined) assertNameFree(agents, name);
  if (agents.length >= LIMITS.agentsPerAccount) {
    const message = `Agent limit reached (${LIMITS.agentsPerAccount}): this account has ${agents.length} live agents`;
    throw new AgentLimitError(message, AGENT_LIMIT_HINT);
  }
  return agents;
}

/**
 * The launch, in this service's launch turn (shared/launch-lock.ts): the list its checks read, then
 * the request, so that two launches of one name from this machine make one agent. Ctrl-C or SIGTERM
 * ends it at once (shared/stop.ts), saying whether the launch may have reached the service.
 */
async function launch(input: LaunchInput, ctx: Context, launchBody: LaunchBody): Promise<LaunchResult> {
  const { client } = await ctx.api();
  const name = launchBody.name;
  return withStop(ctx, async (stop) => {
    let sent = false;
    try {
      return await inLaunchTurn(ctx, stop, async (turn) => {
        await stop.race(liveAgents(ctx, input.allowDuplicateName ? undefined : name));
        assertTurnHeld(turn, name, "check with 'superagent list', then launch again");
        sent = true;
        const launching = superagents.launch(client, launchBody).catch(async (err: unknown) => {
          throw await namingTheAgent(client, err, name);
        });
        const result = await stop.race(launching);
        if (!input.allowDuplicateName) await stop.race(noTwin(ctx, name, result.agent_id));
        return result;
      });
    } catch (err) {
      const stopped = stop.reason;
      if (!sent || !stopped || err !== stopped) throw err;
      const told = `${stopped.message}: the launch of '${name}' may have reached the service`;
      throw rephrased(stopped, told, "check with 'superagent list' before launching again");
    }
  });
}

/**
 * A run on another machine takes no turn of ours: the list is read once more (a request more per
 * launch) for a twin it launched meanwhile. A read that fails does not hide the launch: it is said.
 */
async function noTwin(ctx: Context, name: string, ours: string): Promise<void> {
  const { client } = await ctx.api();
  try {
    await assertNoTwins(client, [[name, ours]], 'just launched');
  } catch (err) {
    if (err instanceof TwinAgentsError) {
      throw rephrased(err, err.message, `destroy one: ${ourCommand(ctx, 'destroy', ours)}`);
    }
    if (!(err instanceof ApiError)) throw err;
    const failed = `the list read again to rule out another agent named '${name}' failed (${maskSecrets(err.message)})`;
    ctx.printer.warn(`Launched, but ${failed}: check with 'superagent list'`);
  }
}

/** `sent`: the name asked for, for an answer that does not repeat it. */
function report(result: LaunchResult, sent: string, ctx: Context): void {
  const p = ctx.printer;
  if (p.json) return p.printJson(result);
  const name = result.name ?? sent;
  p.success(`Launched ${name}`);
  if (p.stdoutIsTTY) {
    printFields(p, [
      ['Name', name],
      ['ID', result.agent_id],
      ['Status', result.status === undefined ? unknown(p) : statusWord(p, result.status)],
      ['Wallet', orUnknown(p, result.wallet_address)],
      ['Bot', botField(p, result.bot_username)],
    ]);
  } else {
    p.data(result.agent_id); // `id=$(superagent launch …)`
  }
  p.status(p.err.dim(`Chat with it: superagent chat ${shellWord(name)}`));
}

export async function run(input: Input<typeof spec>, ctx: Context): Promise<void> {
  const launchBody = await body(input, ctx);
  report(await launch(input, ctx, launchBody), launchBody.name, ctx);
}
