// Loaded on first use, from its own bundle (scripts/build.mjs).
export { input, password, select, confirm } from '@inquirer/prompts';
