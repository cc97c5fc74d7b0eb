// `superagent schema`: the JSON Schema of the fleet file, for editors (and for plan and apply,
// which check the file against the very same object).
import { FLEET_FILE, FLEET_SCHEMA } from '../fleet/schema.js';
import type { Context } from '../context.js';
import type { Input, Spec } from '../spec.js';

export const spec = {
  description:
    `Print the JSON Schema of ${FLEET_FILE}, the file that plan ` +
    `and apply read, so an editor can complete and check it ` +
    `(with the YAML language server: save it as superagents.schema.json and start ` +
    `${FLEET_FILE} with '# yaml-language-server: $schema=superagents.schema.json').`,
  examples: ['superagent schema > superagents.schema.json'],
} as const satisfies Spec;

export async function run(_input: Input<typeof spec>, ctx: Context): Promise<void> {
  ctx.printer.printJson(FLEET_SCHEMA);
}
