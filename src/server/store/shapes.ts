// What a record must hold to be one of ours, by kind: a file that is JSON but not a record we wrote
// (`{}`, a list, a name that is null, a time that is an object) is refused as an unreadable record
// (StoreCorruptError: exit 2 naming it, left out of lists), never read into a TypeError (a 500 "bug").
import type { Kind } from './layout.js';
import { StoreCorruptError, readRecord, type Stored } from './records.js';

type FieldType = 'string' | 'object' | 'number' | 'boolean';

/** [ours] the fields each kind of record must have (every version of the store wrote them), each of its type */
const REQUIRED: Record<Kind, Record<string, FieldType>> = {
  agent: { agent_id: 'string', name: 'string', status: 'string', created_at: 'string' },
  classic: { id: 'string', name: 'string', created_at: 'string' },
  session: { session_id: 'string', created_at: 'string' },
};

/** [ours] fields that may be missing (older records), but not of another type */
const TYPED: Record<string, FieldType> = {
  model: 'string',
  description: 'string',
  soul_md: 'string',
  memory_md: 'string',
  skills: 'object',
  updated_at: 'string',
  data: 'object',
  triggers: 'object',
  enabled: 'boolean',
  history: 'object',
  turns: 'number',
};

/** The record, if it has its kind's fields; else the store cannot use it. */
export function shaped<T>(kind: Kind, file: string, record: T): T {
  const r = record as Record<string, unknown> | null;
  const ok =
    r !== null &&
    typeof r === 'object' &&
    !Array.isArray(r) &&
    Object.entries(REQUIRED[kind]).every(([field, type]) => typeof r[field] === type) &&
    Object.entries(TYPED).every(
      ([field, type]) => r[field] === undefined || (typeof r[field] === type && r[field] !== null),
    );
  if (!ok) throw new StoreCorruptError(`The record ${file} is not valid; move it aside to drop it`);
  return record;
}

/** The record in `file` read from disk now (readRecord), refused if it is not one of ours. */
export function readShaped<T>(kind: Kind, file: string): Stored<T> | undefined {
  const stored = readRecord<T>(file);
  if (stored) shaped(kind, file, stored.record);
  return stored;
}

/** A read-modify-write change that gets the record only once it is known to be one of ours. */
export function shapedChange<T, R>(
  kind: Kind,
  file: string,
  change: (draft: T | undefined) => R,
): (draft: T | undefined) => R {
  return (draft) => change(draft === undefined ? undefined : shaped(kind, file, draft));
}
