// Loaded when a soul's edit or a fleet plan shows a diff, from its own bundle (scripts/build.mjs):
// jsdiff, behind our unified diff (src/ui/diff.ts). No other command loads it.
export { structuredPatch } from 'diff';
