// Loaded when a rendered reply or file has a fenced block, from its own bundle (scripts/build.mjs):
// highlight.js with six languages (json, python, javascript, typescript, bash, sql) behind our
// line-by-line colouring (src/ui/markdown/code.ts). A reply without code never loads it.
export { highlighter } from '../ui/markdown/code.js';
