// PLACEHOLDER: being written now; replace this whole file.
import type { CommandSpec } from '../../spec.js';

export const spec: CommandSpec = { name: 'assistant ask', summary: 'placeholder', examples: [] };

export async function run(): Promise<number> {
  throw new Error('not written yet');
}
