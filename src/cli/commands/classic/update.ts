// `superagent classic update <id> [--name] [--description] [--goal] [--instructions]`: PATCH only what is given.
import { classic } from '../../../api/classic.js';
import type { ClassicPatch } from '../../../api/types.js';
import { LIMITS } from '../../../contract.js';
import { assertTextControls, parseAgentName, parseDescription } from '../shared/agent-fields.js';
import { onClassic, printClassic, resolveClassic } from './record.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../../core/errors.js';
import type { Input, Spec } from '../../spec.js';

export const spec = {
  description: 'Change a classic agent: only the fields given change. Prints the updated agent.',
  args: [
    {
      name: 'agent',
      description: 'the classic agent: its uuid, a unique id prefix (4+ characters) or its name',
      required: true,
    },
  ],
  options: {
    name: { type: 'string', description: `new name (1 to ${LIMITS.nameChars} characters)` },
    description: {
      type: 'string',
      value: 'text',
      description: `new description (up to ${LIMITS.descriptionChars} characters; '' clears it)`,
    },
    goal: { type: 'string', value: 'text', description: `new goal (1 to ${LIMITS.classicGoalChars} characters)` },
    instructions: {
      type: 'string',
      value: 'text',
      description: `new instructions (1 to ${LIMITS.classicInstructionsChars} characters)`,
    },
  },
  examples: [
    'superagent classic update 0b7c2d4e-8f1a-4c3b-9d2e-5a6f7b8c9d0e --name "Whale Watcher"',
    'superagent classic update 0b7c2d4e-8f1a-4c3b-9d2e-5a6f7b8c9d0e --goal ' +
      '"Spot large wallet moves" --instructions "$(cat instructions.txt)"',
  ],
} as const satisfies Spec;

/**
 * Goal and instructions as the service will check them (docs/api.md, Records and field rules): not
 * empty, not too long, no escape sequence.
 */
function parseText(flag: string, value: unknown, max: number): string {
  const text = String(value);
  if (text.trim() === '') throw new UsageError(`${flag} must not be empty`);
  const length = [...text].length;
  if (length > max) throw new UsageError(`${flag} must be at most ${max} characters (it has ${length})`);
  assertTextControls(flag, text);
  return text;
}

/** The PATCH body, checked before any request; name and description follow the SuperAgent rules. */
export function patchFrom(
  input: Pick<Input<typeof spec>, 'name' | 'description' | 'goal' | 'instructions'>,
): ClassicPatch {
  const patch: ClassicPatch = {};
  if (input.name !== undefined) patch.name = parseAgentName(input.name);
  if (input.description !== undefined) patch.description = parseDescription(input.description);
  if (input.goal !== undefined) patch.goal = parseText('--goal', input.goal, LIMITS.classicGoalChars);
  if (input.instructions !== undefined)
    patch.instructions = parseText('--instructions', input.instructions, LIMITS.classicInstructionsChars);
  if (Object.keys(patch).length === 0) {
    throw new UsageError('nothing to update', 'give at least one of --name, --description, --goal, --instructions');
  }
  return patch;
}

export async function run(input: Input<typeof spec>, ctx: Context): Promise<void> {
  const patch = patchFrom(input);
  const { client } = await ctx.api();
  const id = await resolveClassic(client, input.agent);
  const record = await onClassic(id, () => classic.update(client, id, patch));
  const p = ctx.printer;
  if (p.json) return p.printJson(record);
  p.success(`Updated ${record.name ?? id}`);
  printClassic(p, record);
}
