// The text inside a block (a paragraph, a heading, a list item, a table cell) parsed by markdown-it
// and turned into styled spans: **strong**, *emphasis*, ~~struck~~, `code`, links and images. A
// link is a terminal hyperlink where the terminal has them and `text (url)` elsewhere.
import markdownIt, { type MarkdownIt, type Token } from 'markdown-it';
import { linkable, type Span } from './spans.js';
import { SGR } from './theme.js';

/**
 * One parser for the process: no raw HTML, bare URLs only with their scheme (`file.sh` stays text), line breaks kept.
 */
export function createParser(): MarkdownIt {
  const md = new markdownIt('default', { html: false, linkify: true, typographer: false, breaks: true });
  md.linkify.set({ fuzzyLink: false, fuzzyEmail: false, fuzzyIP: false });
  return md;
}

export interface InlineOptions {
  hyperlinks: boolean;
  colour: boolean;
}

interface OpenLink {
  href: string;
  /** index of the link's first span */
  from: number;
}

/** Whether the text shown for a link says its address already (an autolink, a bare URL). */
function showsAddress(text: string, href: string): boolean {
  return text === href || `mailto:${text}` === href || `http://${text}` === href;
}

/**
 * A character (or a scheme) that can start inline Markdown:
 * emphasis, code, links, images, HTML, entities, escapes, URLs.
 */
const INLINE_SYNTAX = /[*_`[\]!<&\\~]|:\/\/|mailto:/i;

/**
 * Text with none of that is what markdown-it would make of it: its lines without their trailing
 * white space, the whole trimmed. Most lines of a reply are such prose; parsing them costs a long
 * reply more than everything else (bench/stream-throughput.js).
 */
function plainText(text: string): string | undefined {
  if (INLINE_SYNTAX.test(text)) return undefined;
  return text.includes('\n')
    ? text
        .split('\n')
        .map((l) => l.trimEnd())
        .join('\n')
        .trim()
    : text.trim();
}

export function inlineSpans(md: MarkdownIt, text: string, o: InlineOptions): Span[] {
  const plain = plainText(text);
  if (plain !== undefined) return plain === '' ? [] : [{ text: plain }];
  const spans: Span[] = [];
  const styles: string[] = [];
  const links: OpenLink[] = [];
  const push = (t: string, extra?: string) => {
    const sgr = [...styles, ...(extra ? [extra] : [])].join(';');
    const href = links[links.length - 1]?.href;
    spans.push({ text: t, ...(sgr ? { sgr } : {}), ...(href !== undefined ? { href } : {}) });
  };
  const closeLink = () => {
    const link = links.pop();
    if (!link) return;
    const shown = spans
      .slice(link.from)
      .map((s) => s.text)
      .join('');
    if (o.hyperlinks && linkable(link.href)) return;
    if (!showsAddress(shown, link.href)) spans.push({ text: ` (${link.href})`, sgr: SGR.url });
  };
  const tokens: Token[] = md.parseInline(text, {})[0]?.children ?? [];
  for (const t of tokens) {
    switch (t.type) {
      case 'text':
        push(t.content);
        break;
      case 'code_inline':
        // without colour, the backticks are what tells code from prose
        push(o.colour ? t.content : `\`${t.content}\``, SGR.code);
        break;
      case 'softbreak':
        // a line break in a reply stays one, as in chat apps and GitHub comments (replies are not
        // hard-wrapped prose); the line is still wrapped to the width
        push('\n');
        break;
      case 'hardbreak':
        push('\n');
        break;
      case 'strong_open':
        styles.push(SGR.strong);
        break;
      case 'em_open':
        styles.push(SGR.em);
        break;
      case 's_open':
        styles.push(SGR.strike);
        break;
      case 'strong_close':
      case 'em_close':
      case 's_close':
        styles.pop();
        break;
      case 'link_open':
        links.push({ href: String(t.attrGet('href') ?? ''), from: spans.length });
        styles.push(SGR.link);
        break;
      case 'link_close':
        styles.pop();
        closeLink();
        break;
      case 'image': {
        links.push({ href: String(t.attrGet('src') ?? ''), from: spans.length });
        push(t.content || 'image', SGR.link);
        closeLink();
        break;
      }
      default:
        push(t.content);
    }
  }
  return spans;
}
