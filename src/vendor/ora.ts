// Loaded on first use, from its own bundle (see src/vendor/undici.ts).
export { default } from 'ora';
