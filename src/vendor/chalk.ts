// Loaded on first use, from its own bundle (see src/vendor/undici.ts).
export { Chalk } from 'chalk';
