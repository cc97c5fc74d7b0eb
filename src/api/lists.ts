// A list answer read leniently (docs/api.md, Rules the client follows: Shapes): a bare array, or one
// wrapped under a known key.
import { BadAnswerError } from '../core/errors.js';

export function unwrapList(body: unknown, keys: readonly string[], what: string): unknown[] {
  if (Array.isArray(body)) return body;
  if (body && typeof body === 'object') {
    for (const key of keys) {
      const inner = (body as Record<string, unknown>)[key];
      if (Array.isArray(inner)) return inner;
    }
  }
  throw new BadAnswerError(
    `the service answered the ${what} with something that is not a list`,
    'check the base URL points at a SuperAgents service',
  );
}
