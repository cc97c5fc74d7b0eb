// Loaded when a reply starts on a terminal with rendering on (while its request is on its way), from
// its own bundle (scripts/build.mjs): get-east-asian-width and our streaming renderer over it
// (src/ui/markdown/stream.ts: the block splitter and the plain tail). Small, so that a reply's first
// bytes need nothing more; the painter of blocks (markdown.ts) and the highlighter (highlight.ts)
// come after them. Not in the CLI bundle, which every command loads.
export { MarkdownStream } from '../ui/markdown/stream.js';
