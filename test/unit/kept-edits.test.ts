// Kept soul.md edits on disk (src/cli/commands/soul/kept-edits.ts): filed and found per agent, the
// newest first, and an agent id the service sent that is not a plain word stays inside the store.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { KeptEdits } from '../../src/cli/commands/soul/kept-edits.js';
import { createPrivateFile } from '../../src/ui/editor.js';
import { tempDir } from '../helpers/service.js';

const dirs: string[] = [];
const scratch = () => (dirs.push(tempDir('superagent-kept-')), dirs.at(-1)!);
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function keep(store: KeptEdits, agentId: string, text: string, keptAt: string) {
  const draft = createPrivateFile('demo.soul.md', text, scratch());
  return store.keep(draft, { agentId, name: 'demo', keptAt, base: 'b'.repeat(64) });
}

it.each(['../../escape', 'a/b', '..', ''])(
  'an agent id like %j is filed inside the store, and found again',
  (agentId) => {
    const root = path.join(scratch(), 'store');
    const store = new KeptEdits(root);
    const kept = keep(store, agentId, 'mine\n', '2026-11-22T12:00:00.000Z');
    expect(path.relative(root, kept.dir)).not.toMatch(/^\.\.|\//);
    expect(store.newest(agentId)).toMatchObject({ file: kept.path, name: 'demo', keptAt: '2026-11-22T12:00:00.000Z' });
    expect(store.newest('another')).toBeUndefined();
  },
);

it('the newest of several kept edits of an agent is offered; discarding it leaves the older one', () => {
  const store = new KeptEdits(path.join(scratch(), 'store'));
  keep(store, 'a1', 'older\n', '2026-11-22T12:00:00.000Z');
  const newer = keep(store, 'a1', 'newer\n', '2026-11-22T13:00:00.000Z');
  const first = store.newest('a1')!;
  expect(first.file).toBe(newer.path);
  store.discard(first);
  expect(fs.readFileSync(store.newest('a1')!.file, 'utf8')).toBe('older\n');
});
