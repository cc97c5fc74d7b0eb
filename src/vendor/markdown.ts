// Loaded when a reply (or an agent's file) is rendered on a terminal, from its own bundle
// (scripts/build.mjs): markdown-it, highlight.js with six languages, string-width, and our renderer
// over them (src/ui/markdown/). Never loaded for --version, get, a pipe or --raw.
import type { MarkdownIt } from 'markdown-it';
import { createParser } from '../ui/markdown/inline.js';
import { renderMarkdown, type Layout } from '../ui/markdown/render.js';
import { MarkdownStream, type StreamLayout } from '../ui/markdown/stream.js';

let parser: MarkdownIt | undefined;
const md = () => (parser ??= createParser());

/** A reply's renderer: push each piece, then end. */
export const markdownStream = (layout: StreamLayout): MarkdownStream => new MarkdownStream(layout, md());

/** A whole document, rendered: its lines, each to be ended with \n. */
export const markdownDocument = (text: string, layout: Layout): string[] => renderMarkdown(text, layout, md());

export type { MarkdownStream, Layout, StreamLayout };
