// Fenced code, coloured by highlight.js as it streams (its own bundle, src/vendor/highlight.ts: loaded
// only when a reply has a fence): each line is shown as soon as it is complete,
// highlighted together with the lines just above it (a few, a bounded amount of text), so a string
// or comment that spans lines keeps its colour, and the work per line stays bounded whatever the
// block's size. Past a size no reply has, a block is shown uncoloured. Languages: json, python,
// javascript, typescript, bash (sh, shell, zsh), sql; any other is shown uncoloured.
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import python from 'highlight.js/lib/languages/python';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import { expandTabs } from './lines.js';
import type { Span } from './spans.js';
import { scopeSgr } from './theme.js';

for (const [name, lang] of Object.entries({ bash, javascript, json, python, sql, typescript }))
  hljs.registerLanguage(name, lang);
hljs.registerAliases(['shell', 'console', 'shellscript'], { languageName: 'bash' });

/** [ours] lines of context highlighted with each line, and their most text */
const CONTEXT_LINES = 8;
const CONTEXT_CHARS = 2_000;
/** [ours] a line this long, or a block with this much text, is not coloured */
const LINE_MAX = 2_000;
const BLOCK_MAX = 32 * 1024;

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#x27;': "'" };
const decode = (text: string) => text.replace(/&(?:amp|lt|gt|quot|#x27);/g, (e) => ENTITIES[e]!);

/** highlight.js's HTML (spans with classes, escaped text) as lines of text, each part with its scopes. */
function scopedLines(html: string): Array<Array<{ text: string; scopes: string[] }>> {
  const lines: Array<Array<{ text: string; scopes: string[] }>> = [[]];
  const scopes: string[] = [];
  for (const m of html.matchAll(/<span class="([^"]*)">|<\/span>|[^<]+/g)) {
    if (m[1] !== undefined) scopes.push(m[1].split(' ')[0]!.replace(/^hljs-/, ''));
    else if (m[0] === '</span>') scopes.pop();
    else {
      const parts = decode(m[0]).split('\n');
      parts.forEach((text, i) => {
        if (i > 0) lines.push([]);
        if (text !== '') lines[lines.length - 1]!.push({ text, scopes: [...scopes] });
      });
    }
  }
  return lines;
}

/** The lines of one fenced block, coloured. */
export const highlighter = (lang: string): CodeBlock => new CodeBlock(lang);

export class CodeBlock {
  private readonly language: string | undefined;
  private recent: string[] = [];
  private seen = 0;

  constructor(lang: string) {
    const name = lang.toLowerCase();
    this.language = name && hljs.getLanguage(name) ? name : undefined;
  }

  /** One line of the block, coloured in the light of the lines above it. */
  line(raw: string): Span[] {
    const text = expandTabs(raw);
    this.seen += text.length + 1;
    if (!this.language || text.length > LINE_MAX || this.seen > BLOCK_MAX) return [{ text }];
    const source = [...this.recent, text].join('\n');
    const lines = scopedLines(hljs.highlight(source, { language: this.language, ignoreIllegals: true }).value);
    this.remember(text);
    return (lines[lines.length - 1] ?? []).map(({ text: t, scopes }) => {
      const sgr = scopeSgr(scopes);
      return sgr ? { text: t, sgr } : { text: t };
    });
  }

  private remember(text: string): void {
    this.recent.push(text);
    let chars = this.recent.reduce((n, l) => n + l.length + 1, 0);
    while (this.recent.length > CONTEXT_LINES || (this.recent.length > 0 && chars > CONTEXT_CHARS))
      chars -= this.recent.shift()!.length + 1;
  }
}
