// Tool calls on stderr (docs/api.md, Streaming replies): one dim line per call,
// `⚙ get_funding_rate(symbol=ETH) ✓ 0.2 s`.
// On a terminal the line opens when the call starts and is finished when it ends; in a log
// (--verbose without a terminal) each line is written whole when the call ends.
import type { ToolCall } from '../api/sse.js';
import type { Printer } from './printer.js';

const ARGS_CHARS = 60;
const ERROR_CHARS = 80;

/** One line of text, whatever the service put in it (controls and line breaks become spaces). */
function flat(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function argValue(v: unknown): string {
  return typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v));
}

/** `symbol=ETH, interval=1h` from an object or its JSON text; anything else as JSON. */
export function shortArgs(args: unknown): string {
  let value = args;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return clip(flat(args as string), ARGS_CHARS);
    }
  }
  if (value === undefined || value === null) return '';
  const text =
    typeof value === 'object' && !Array.isArray(value)
      ? Object.entries(value as Record<string, unknown>)
          .map(([k, v]) => `${k}=${argValue(v)}`)
          .join(', ')
      : argValue(value);
  return clip(flat(text), ARGS_CHARS);
}

export function toolLabel(call: ToolCall): string {
  return `⚙ ${clip(flat(call.name), 60)}(${shortArgs(call.args)})`;
}

export function formatDuration(ms: number): string {
  const s = ms / 1000;
  return s < 10 ? `${s.toFixed(1)} s` : `${Math.round(s)} s`;
}

export function toolOutcome(call: ToolCall): string {
  if (call.state === 'failed') return `✗ ${clip(flat(call.error ?? 'failed'), ERROR_CHARS)}`;
  if (call.state === 'running') return '…';
  return call.durationMs === undefined ? '✓' : `✓ ${formatDuration(call.durationMs)}`;
}

export type ToolDisplay = 'live' | 'log' | 'off';

/** live on a terminal; a log line per call with --verbose elsewhere; nothing otherwise or with --quiet. */
export function toolDisplay(p: Printer, verbose: boolean): ToolDisplay {
  if (p.options.quiet) return 'off';
  if (p.stderrIsTTY) return 'live';
  return verbose ? 'log' : 'off';
}

export class ToolLines {
  /** the call whose line is open on the terminal (started, not yet ended) */
  private openId: string | undefined;
  private readonly running = new Map<string, ToolCall>();

  /** `beforeLine` ends a reply line left open on a shared terminal before a tool line is drawn */
  constructor(
    private readonly p: Printer,
    private readonly mode: ToolDisplay,
    private readonly beforeLine: () => void = () => undefined,
  ) {}

  show(call: ToolCall): void {
    if (this.mode === 'off') return;
    const dim = this.p.err.dim;
    if (call.state === 'running') {
      this.running.set(call.id, call);
      if (this.mode !== 'live') return;
      this.close();
      this.beforeLine();
      this.p.stderrWrite(dim(toolLabel(call)));
      this.openId = call.id;
      return;
    }
    this.running.delete(call.id);
    if (this.mode === 'live' && this.openId === call.id) {
      this.p.stderrWrite(dim(` ${toolOutcome(call)}`) + '\n');
      this.openId = undefined;
      return;
    }
    this.close();
    if (this.mode === 'live') this.beforeLine();
    this.p.stderrWrite(dim(`${toolLabel(call)} ${toolOutcome(call)}`) + '\n');
  }

  /**
   * Ends an open tool line (before reply text is printed, and at the end); true if there was one
   * (its line, with a ^C echoed on it, is now ended).
   */
  close(): boolean {
    if (this.openId === undefined) return false;
    this.p.stderrWrite('\n');
    this.openId = undefined;
    return true;
  }

  /** The reply is over: calls that never ended are still reported. */
  finish(): void {
    this.close();
    if (this.mode === 'log') for (const call of this.running.values()) this.p.stderrWrite(`${toolLabel(call)} …\n`);
    this.running.clear();
  }
}
