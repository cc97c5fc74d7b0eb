// Loaded on first use, from its own bundle (scripts/build.mjs): validates a fleet file against the
// JSON Schema that `superagent schema` prints.
export { Ajv } from 'ajv';
export type { ErrorObject } from 'ajv';
