// Whether replies and agent files are rendered as Markdown, and the renderer when they are: on a
// terminal that can move its cursor (stdout a TTY, TERM not dumb), unless --json, --raw or the
// profile's `render raw`. The renderer (markdown-it, highlight.js: src/vendor/markdown.ts) is loaded
// only then, and only once a reply starts; a pipe gets the service's bytes untouched.
import type { Layout } from '../../vendor/markdown.js';
import { MarkdownStream } from '../../ui/markdown/stream.js';
import { hyperlinksSupported } from '../../ui/markdown/hyperlinks.js';
import { ours, terminalSafe, TerminalSafeStream, unmark } from '../../ui/terminal-safe.js';
import type { Context } from '../context.js';

export type MarkdownModule = typeof import('../../vendor/markdown.js');

/** The message asks for structured output (contract §5): its answer is JSON, not Markdown. */
export const asksForJson = (message: string): boolean => /respond as json/i.test(message);

export async function rendersMarkdown(ctx: Context): Promise<boolean> {
  const p = ctx.printer;
  if (!p.stdoutIsTTY || p.json || ctx.globals.raw || ctx.env.TERM === 'dumb') return false;
  const { connection } = await ctx.api();
  return connection.profile?.render !== 'raw';
}

/** The renderer's module, loading (call it early: it loads while the request is on its way). */
export function loadMarkdown(): Promise<MarkdownModule> {
  return import('../../vendor/markdown.js');
}

/** The terminal as the renderer sees it: its size, colour, hyperlinks, and our own escapes as markers. */
export function layoutFor(ctx: Context): Layout & { rows: number } {
  const p = ctx.printer;
  const colour = p.stdoutColour;
  return { width: p.columns, rows: p.rows, colour, hyperlinks: colour && hyperlinksSupported(ctx.env), mark: ours };
}

/** An agent's file (soul.md, memory.md) on stdout: rendered on a terminal, else its bytes. */
export async function printDocument(ctx: Context, text: string): Promise<void> {
  const p = ctx.printer;
  if (await rendersMarkdown(ctx)) {
    const { markdownDocument } = await loadMarkdown();
    const lines = markdownDocument(terminalSafe(text), layoutFor(ctx));
    p.writeSafe(unmark(lines.map((l) => `${l}\n`).join('')));
    return;
  }
  // Piped or redirected, the bytes are the file's; on a terminal the prompt should start on its own line.
  p.write(p.stdoutIsTTY && !text.endsWith('\n') ? `${text}\n` : text);
}

/**
 * A reply on the terminal, rendered as it streams. Pieces go through the terminal-safety filter
 * first, then the stream, whose own escapes are markers until written. The painter of blocks starts
 * loading once the first piece is on the screen (its ~30 ms of compiling would otherwise hold the
 * first bytes back: bench/first-byte.js); blocks complete before it is ready wait, shown plain.
 */
export class ReplyView {
  private readonly safe = new TerminalSafeStream();
  private readonly layout: ReturnType<typeof layoutFor>;
  private readonly stream: MarkdownStream;
  private loaded: Promise<void> | undefined;

  constructor(private readonly ctx: Context) {
    this.layout = layoutFor(ctx);
    this.stream = new MarkdownStream(this.layout);
  }

  write(piece: string): void {
    this.out(this.stream.push(this.safe.push(piece)));
    this.load();
  }

  /** Before a tool line on the same terminal: the unrendered tail goes, to come back with the next piece. */
  hide(): void {
    this.out(this.stream.hide());
  }

  /** The reply is over (or cut short): all of it rendered, the cursor at the start of a line. */
  async end(): Promise<void> {
    this.out(this.stream.push(this.safe.end()));
    await this.load();
    this.out(this.stream.end());
  }

  private load(): Promise<void> {
    if (!this.loaded) {
      this.loaded = loadMarkdown().then((m) => this.out(this.stream.ready(m.blockPainter(this.layout))));
      // a failure to load shows at the end of the reply (awaited there), not as an unhandled rejection
      this.loaded.catch(() => undefined);
    }
    return this.loaded;
  }

  private out(text: string): void {
    if (text !== '') this.ctx.printer.writeSafe(unmark(text));
  }
}
