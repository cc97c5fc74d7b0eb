// How `apply` shows its steps: on a terminal, a progress bar on stderr and a ✓ line per step done;
// piped, one plain line per step on stdout (what a CI log keeps). Waits for the rate budget are
// said on stderr either way.
import type { Spinner } from '../../ui/spinner.js';
import type { Context } from '../context.js';
import type { Step } from './steps.js';

const BAR = 20;

/** What a wait for the rate budget is called on stderr. */
export function waitLine(ms: number, left?: number): string {
  const togo = left === undefined ? '' : ` (${left} step${left === 1 ? '' : 's'} to go)`;
  return `Waiting ${Math.ceil(ms / 1000)} s to stay within the service's limit of requests a minute${togo}\n`;
}

export class Progress {
  private spinner: Spinner | undefined;
  private waitUntil = 0;
  private current = '';
  private index = 0;

  constructor(
    private readonly ctx: Context,
    private readonly total: number,
  ) {}

  private get onTerminal(): boolean {
    return this.ctx.printer.chatty;
  }

  private bar(): string {
    const full = Math.round((this.index / this.total) * BAR);
    return `${'█'.repeat(full)}${'░'.repeat(BAR - full)} ${this.index}/${this.total}`;
  }

  private text(): string {
    const wait = Math.ceil((this.waitUntil - this.ctx.clock.now()) / 1000);
    // a step's label is safe as it is (steps.ts shownName)
    const step = this.current;
    return wait > 0 ? `${this.bar()} ${step}: waiting ${wait} s for the rate limit` : `${this.bar()} ${step}`;
  }

  start(index: number, step: Step): void {
    this.index = index;
    this.current = step.label;
    if (this.onTerminal) this.spinner = this.ctx.spinner('', { text: () => this.text() });
  }

  done(step: Step): void {
    this.stop();
    this.index++;
    const p = this.ctx.printer;
    if (this.onTerminal) p.success(step.label);
    else if (!p.json) p.data(`[${this.index}/${this.total}] ${step.label}: done`);
  }

  /** A wait before the next request; on a terminal the bar counts it down. */
  waiting(ms: number, left: number): void {
    this.waitUntil = this.ctx.clock.now() + ms;
    if (this.onTerminal && this.spinner) return;
    const p = this.ctx.printer;
    if (!p.options.quiet) p.stderrWrite(waitLine(ms, left));
  }

  stop(): void {
    this.spinner?.stop();
    this.spinner = undefined;
  }
}
