// Loaded on first use, from its own bundle (scripts/build.mjs).
export { Chalk } from 'chalk';
