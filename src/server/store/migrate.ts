// The store's directory, made once: empty, or from a data dir's old single document (state.json,
// the earlier layout). It is built whole in a temp directory and renamed into place, so a
// crash mid-way leaves the old file in charge and the next start migrates again; the old file is then
// kept as state.json.migrated.
import fs from 'node:fs';
import path from 'node:path';
import { tempNameFor, writeFileAtomic } from '../../core/atomic-write.js';
import { asEnvironmentError } from '../../core/errors.js';
import { Locks, processAlive } from '../../core/file-lock.js';
import { LAYOUT_VERSION, Layout, listDir } from './layout.js';
import { OwnedRecords } from './owned.js';
import { RecordFiles, StoreCorruptError, readTextIfAny } from './records.js';
import { SessionFiles, orderName, type StoredSession } from './session-files.js';

export const LEGACY_FILE = 'state.json';
export const LEGACY_KEPT_AS = 'state.json.migrated';

interface LegacyState {
  superagents?: Record<string, Record<string, unknown>>;
  sessions?: Record<string, StoredSession>;
  classic?: Record<string, Record<string, unknown>>;
}

function readLegacy(file: string): LegacyState | undefined {
  const text = readTextIfAny(file);
  if (text === undefined) return undefined;
  // an empty file (a first start killed between create and write) is an empty store
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as LegacyState;
  } catch {
    throw new StoreCorruptError(`The data file ${file} is not valid JSON; move it aside to start afresh`);
  }
}

/** Makes `layout.root` if it is missing, from state.json when there is one. */
export function ensureLayout(layout: Layout): void {
  const legacy = path.join(layout.dataDir, LEGACY_FILE);
  if (!isComplete(layout)) {
    const state = readLegacy(legacy) ?? {};
    sweepBuilds(layout);
    const build = tempNameFor(layout.root);
    try {
      writeAll(new Layout(layout.dataDir, path.basename(build)), state);
      fs.renameSync(build, layout.root);
    } catch (err) {
      fs.rmSync(build, { recursive: true, force: true });
      // another process put its directory in place first: it came from the same file
      const code = (err as NodeJS.ErrnoException).code;
      // a refusal (a full disk) names the directory being made, not the temp one it is built in
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST') {
        throw asEnvironmentError(err, { path: layout.root, action: 'cannot create' }) ?? err;
      }
    }
    if (!isComplete(layout)) {
      throw new StoreCorruptError(
        `The store's directory ${layout.root} is incomplete; move it aside to rebuild it from ${LEGACY_FILE}`,
      );
    }
  }
  // after the directory is in place, so a crash between the two migrates again, losing nothing
  try {
    fs.renameSync(legacy, path.join(layout.dataDir, LEGACY_KEPT_AS));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

/**
 * Whether the store's directory is in place, whole. One there that cannot be looked into (no
 * permission, a file in its place) is the machine's refusal, named: not a directory to build again.
 */
function isComplete(layout: Layout): boolean {
  try {
    fs.statSync(path.join(layout.root, 'LAYOUT'));
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw asEnvironmentError(err, { path: layout.root, action: 'cannot read' }) ?? err;
  }
}

/** Half-built directories of starts that died (their process is gone, or they are an hour old). */
function sweepBuilds(layout: Layout): void {
  const prefix = `${path.basename(layout.root)}.`;
  for (const name of listDir(layout.dataDir)) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
    const full = path.join(layout.dataDir, name);
    const pid = Number(name.slice(prefix.length).split('.')[0]);
    const st = fs.statSync(full, { throwIfNoEntry: false });
    if (st && (!processAlive(pid) || Date.now() - st.mtimeMs > 3_600_000))
      fs.rmSync(full, { recursive: true, force: true });
  }
}

function owner(record: Record<string, unknown>): string {
  return typeof record.owner === 'string' ? record.owner : '';
}

function writeAll(layout: Layout, state: LegacyState): void {
  fs.mkdirSync(layout.root, { recursive: true, mode: 0o700 });
  fs.mkdirSync(layout.locks, { mode: 0o700 });
  // nobody else knows this directory yet: its writes need no locks
  const locks = new Locks(layout.locks);
  const files = new RecordFiles(locks, {}, 0);
  const kinds = [
    [new OwnedRecords<Record<string, unknown>>(layout, files, locks, 'agent'), state.superagents],
    [new OwnedRecords<Record<string, unknown>>(layout, files, locks, 'classic'), state.classic],
  ] as const;
  for (const [records, all] of kinds) {
    // the document's insertion order was creation order: it becomes each record's `n`
    Object.entries(all ?? {}).forEach(([id, record], i) =>
      records.write(owner(record), id, { v: 1, n: i + 1, record }),
    );
  }
  const sessions = new SessionFiles(layout, files, locks);
  Object.values(state.sessions ?? {}).forEach((s, i) => {
    const created = Date.parse(s.created_at);
    sessions.write(
      owner(s as unknown as Record<string, unknown>),
      s,
      orderName(Number.isFinite(created) ? created : 0, s.session_id, s.agent_id ?? null, i),
    );
  });
  writeFileAtomic(path.join(layout.root, 'LAYOUT'), JSON.stringify({ layout: LAYOUT_VERSION }));
}
