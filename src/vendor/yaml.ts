// Loaded on first use, from its own bundle (scripts/build.mjs): the fleet file's parser, which
// keeps every node's position so an error can name its line and column.
export { Document, LineCounter, isMap, isPair, isScalar, isSeq, parseDocument } from 'yaml';
export type { Node, Pair, YAMLMap } from 'yaml';
