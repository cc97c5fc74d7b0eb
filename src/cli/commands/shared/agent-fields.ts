// An agent's name and description as the user types them, checked against the service's limits
// (docs/api.md, Records and field rules) before any request. Shared by launch, update and the launch prompt.
import { LIMITS, invisibleIn } from '../../../contract.js';
import { UsageError } from '../../../core/errors.js';

const chars = (s: string) => [...s].length;

/** C0, DEL and C1: what a terminal acts on instead of showing; none belongs in one line of text */

export const NAME_CONTROLS = /[\u0000-\u001f\u007f-\u009f]/;

const DESCRIPTION_CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/** What is wrong with a name, or undefined when it is fine (also the prompt's validator). */
export function agentNameProblem(value: string): string | undefined {
  const name = value.trim();
  if (!name) return 'the name must not be empty';
  if (chars(name) > LIMITS.nameChars)
    return `the name must be at most ${LIMITS.nameChars} characters (it has ${chars(name)})`;
  // a name is shown on terminals, in tables and prompts: no escape sequence may hide in it
  if (NAME_CONTROLS.test(name))
    return 'the name must not contain control characters (escape sequences, tabs, line breaks)';
  // nor what changes how the rest shows (U+202E turns it around) while showing nothing itself
  const invisible = invisibleIn(name);
  if (invisible) return `the name must not contain invisible or direction-changing characters (${invisible})`;
  return undefined;
}

export function parseAgentName(value: unknown, flag = '--name'): string {
  const text = typeof value === 'string' ? value : '';
  const problem = agentNameProblem(text);
  if (problem) throw new UsageError(`${flag}: ${problem}`);
  return text.trim();
}

/** A description may be empty (it clears the old one); only its length is limited. */
export function parseDescription(value: unknown, flag = '--description'): string {
  const text = typeof value === 'string' ? value : '';
  if (chars(text) > LIMITS.descriptionChars) {
    throw new UsageError(`${flag} must be at most ${LIMITS.descriptionChars} characters (it has ${chars(text)})`);
  }
  assertTextControls(flag, text);
  return text;
}

/** Text for several lines (a description, a classic agent's goal): tabs and line breaks, no other control character. */
export function assertTextControls(flag: string, text: string): void {
  if (DESCRIPTION_CONTROLS.test(text))
    throw new UsageError(`${flag} must not contain control characters other than tabs and line breaks`);
}

/** An agent's name made safe for a file name (`scout-v2`), else its id's first 8 characters. */
export function fileSlug(name: string, id: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 60);
  return slug || id.slice(0, 8);
}
