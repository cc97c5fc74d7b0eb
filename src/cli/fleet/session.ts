// What plan and apply share: the file read and checked first (no request for a broken file), then
// the service, through a client paced to its requests a minute, then the plan; and the plan shown.
import type { ApiClient } from '../../api/client.js';
import { RateBudget } from '../../api/rate-budget.js';
import { LIMITS } from '../../contract.js';
import type { Connection } from '../../config/resolve.js';
import { maskUrls } from '../../ui/mask.js';
import type { Context } from '../context.js';
import { targetProfile } from '../commands/shared/settings.js';
import { loadFleetFile } from './file.js';
import { makePlan, type Plan } from './plan.js';
import { waitLine } from './progress.js';
import { planText } from './render.js';
import { checkBotTokens } from './steps.js';

export interface FleetSession {
  plan: Plan;
  client: ApiClient;
  budget: RateBudget;
  /** `the embedded local service`, `https://api.example.com` */
  service: string;
}

function serviceName(connection: Connection, embeddedUrl: string | undefined): string {
  return embeddedUrl !== undefined || connection.baseUrl === null
    ? 'the embedded local service'
    : maskUrls(connection.baseUrl);
}

export async function openFleet(ctx: Context, options: { file?: string; prune: boolean }): Promise<FleetSession> {
  const file = await loadFleetFile(ctx, options.file);
  const budget = new RateBudget(LIMITS.ratePerMinute, ctx.clock);
  budget.onWait = (ms) => {
    if (!ctx.printer.options.quiet) ctx.printer.stderrWrite(waitLine(ms));
  };
  const { client, connection, embedded } = await ctx.api({ pacer: budget });
  const plan = await makePlan(client, file, {
    prune: options.prune,
    profile: targetProfile(ctx, ctx.config.read()).profile,
  });
  // a plan without an agent the service could not read would launch it again, or prune around it
  ctx.requireEveryRecord();
  // a plan that apply would refuse for its tokens is a broken file: said before any plan is shown
  checkBotTokens(plan, ctx.env);
  return { plan, client, budget, service: serviceName(connection, embedded?.url) };
}

/** The plan on stdout, for people (with --json the caller prints data instead). */
export async function showPlan(ctx: Context, plan: Plan): Promise<void> {
  ctx.printer.data((await planText(plan, ctx.printer.out)).replace(/\n$/, ''));
}
