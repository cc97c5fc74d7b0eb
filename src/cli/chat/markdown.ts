// Whether replies and agent files are rendered as Markdown, and the renderer when they are: on a
// terminal that can move its cursor (stdout a TTY, TERM not dumb), unless --json, --raw or the
// profile's `render raw`. The renderer (markdown-it, highlight.js: src/vendor/markdown.ts) is loaded
// only then, and only once a reply starts; a pipe gets the service's bytes untouched.
import type { Layout } from '../../vendor/markdown.js';
import type { MarkdownStream } from '../../vendor/markdown-stream.js';
import { hyperlinksSupported } from '../../ui/markdown/hyperlinks.js';
import { reflowOf, type Reflow } from '../../ui/markdown/reflow.js';
import { ours, terminalSafe, TerminalSafeStream, unmark } from '../../ui/terminal-safe.js';
import type { Context } from '../context.js';
import { usableColumns } from '../../ui/printer.js';

export type MarkdownModule = typeof import('../../vendor/markdown.js');

/** The highlighter for code (its own bundle: a reply without code never loads it). */
function loadHighlighter(): Promise<typeof import('../../vendor/highlight.js')> {
  return import('../../vendor/highlight.js');
}

/** The message asks for structured output (docs/api.md, Chat, sessions and the assistant): its answer is JSON. */
export const asksForJson = (message: string): boolean => /respond as json/i.test(message);

export async function rendersMarkdown(ctx: Context): Promise<boolean> {
  const p = ctx.printer;
  if (!p.stdoutIsTTY || p.json || ctx.globals.raw || ctx.env.TERM === 'dumb') return false;
  // a terminal whose size is unknown or too small to lay out (under 10 columns, 1 row): redrawing the
  // tail there would leave stale rows, so the text comes as it is
  const { rows } = ctx.io.stdout;
  if (usableColumns(ctx.io.stdout) === undefined || (typeof rows === 'number' && rows < 2)) return false;
  const { connection } = await ctx.api();
  return connection.profile?.render !== 'raw';
}

/** The renderer's module, loading (call it early: it loads while the request is on its way). */
export function loadMarkdown(): Promise<MarkdownModule> {
  return import('../../vendor/markdown.js');
}

/**
 * The terminal as the renderer sees it: its size (read at each use: a terminal resized mid-reply lays
 * out the blocks after it at its new width), colour, hyperlinks, and our own escapes as markers.
 */
export function layoutFor(ctx: Context): Layout & { rows: number; reflow: Reflow } {
  const p = ctx.printer;
  const colour = p.stdoutColour;
  return {
    get width() {
      return p.columns;
    },
    get rows() {
      return p.rows;
    },
    colour,
    hyperlinks: colour && hyperlinksSupported(ctx.env),
    mark: ours,
    reflow: reflowOf(ctx.env),
  };
}

/** An agent's file (soul.md, memory.md) on stdout: rendered on a terminal, else its bytes. */
export async function printDocument(ctx: Context, text: string): Promise<void> {
  const p = ctx.printer;
  if (await rendersMarkdown(ctx)) {
    const safe = terminalSafe(text);
    // the highlighter only for a file with a fence (the same test as the renderer's hasFence, without loading it first)
    const [{ markdownDocument }, code] = await Promise.all([
      loadMarkdown(),
      safe.includes('```') || safe.includes('~~~') ? loadHighlighter() : undefined,
    ]);
    const lines = markdownDocument(safe, layoutFor(ctx), code?.highlighter);
    p.writeSafe(unmark(lines.map((l) => `${l}\n`).join('')));
    return;
  }
  // Piped or redirected, the bytes are the file's; on a terminal the prompt should start on its own line.
  p.write(p.stdoutIsTTY && !text.endsWith('\n') ? `${text}\n` : text);
}

/**
 * A reply on the terminal, rendered as it streams. Pieces go through the terminal-safety filter
 * first, then the stream, whose own escapes are markers until written. The painter of blocks starts
 * loading once the first piece is on the screen (its compiling would otherwise hold the first bytes
 * back: bench/first-byte.js), the highlighter only when a fence comes; blocks complete before they
 * are there wait, shown plain.
 */
export class ReplyView {
  private readonly safe = new TerminalSafeStream();
  private readonly layout: ReturnType<typeof layoutFor>;
  private stream: MarkdownStream | undefined;
  private readonly streaming: Promise<MarkdownStream>;
  private painter: ReturnType<MarkdownModule['blockPainter']> | undefined;
  private loaded: Promise<void> | undefined;
  private highlighted: Promise<void> | undefined;

  constructor(private readonly ctx: Context) {
    this.layout = layoutFor(ctx);
    // the small streaming part loads while the request is on its way
    this.streaming = import('../../vendor/markdown-stream.js').then(
      (m) => (this.stream = new m.MarkdownStream(this.layout)),
    );
    this.streaming.catch(() => undefined);
  }

  async write(piece: string): Promise<void> {
    const stream = this.stream ?? (await this.streaming);
    this.out(stream.push(this.safe.push(piece)));
    void this.load();
    void this.highlight();
  }

  /** Whether the plain tail is on the screen: its redraw at the end takes a ^C echoed on it too. */
  get tailShown(): boolean {
    return this.stream?.tailShown ?? false;
  }

  /** Before a tool line on the same terminal: the unrendered tail goes, to come back with the next piece. */
  hide(): void {
    if (this.stream) this.out(this.stream.hide());
  }

  private ended = false;

  /** The reply is over (or cut short): all of it rendered, the cursor at the start of a line. Once. */
  async end(): Promise<void> {
    const stream = this.stream;
    if (!stream || this.ended) return; // no text came, or drawn already
    this.ended = true;
    this.out(stream.push(this.safe.end()));
    await this.load();
    stream.finish();
    await this.highlight();
    this.out(stream.end());
  }

  private load(): Promise<void> {
    const stream = this.stream!;
    this.loaded ??= settled(
      loadMarkdown().then((m) => {
        this.painter = m.blockPainter(this.layout);
        this.out(stream.ready(this.painter));
        void this.highlight();
      }),
    );
    return this.loaded;
  }

  /** Loads the highlighter once a fence waits for it. */
  private highlight(): Promise<void> {
    const painter = this.painter;
    const stream = this.stream;
    if (!this.highlighted && painter && stream?.stalled) {
      this.highlighted = settled(
        loadHighlighter().then((h) => {
          painter.useHighlighter(h.highlighter);
          this.out(stream.ready(painter));
        }),
      );
    }
    return this.highlighted ?? Promise.resolve();
  }

  private out(text: string): void {
    if (text !== '') this.ctx.printer.writeSafe(unmark(text));
  }
}

/** A load whose failure shows where it is awaited (the end of the reply), not as an unhandled rejection meanwhile. */
function settled(p: Promise<void>): Promise<void> {
  p.catch(() => undefined);
  return p;
}
