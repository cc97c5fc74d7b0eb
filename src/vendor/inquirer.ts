// Loaded on first use, from its own bundle (see src/vendor/undici.ts).
export { input, password, select, confirm } from '@inquirer/prompts';
