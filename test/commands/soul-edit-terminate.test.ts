// SIGTERM while `soul edit`'s editor is open. The editor is told to stop, nothing
// is uploaded, and before exiting 143 the command says where the edit is kept and how to upload it,
// as it does whenever an edit is not uploaded (it used to die silently, the draft left in /tmp). The
// edit is kept under the data dir, where the next `soul edit` offers to resume it (SIGHUP does the
// same: soul-edit-hangup.test.ts, with the offer). SIGTERM is FakeSignals; the editor is a function
// of the file that waits to be told to stop.
import fs from 'node:fs';
import { beforeEach, expect, it } from 'vitest';
import { EditorError } from '../../src/ui/editor.js';
import { FakeSignals, cliFor, fakeEditor } from '../helpers/context.js';
import { useSoulEdit } from '../helpers/soul-agent.js';
import type { TestService } from '../helpers/service.js';

const START = 'I am demo.\nBe careful.\n';
const BOLD = 'I am demo.\nBe bold.\n';

const fixture = useSoulEdit(START);
let service: TestService, demo: string, tmp: string, data: string;
beforeEach(() => void ({ service, demo, tmp, data } = fixture));
const cli = cliFor(() => service);

/** An editor that writes `content` (if any), then gets SIGTERM and exits as a real one does when told to stop. */
function terminatedEditor(signals: FakeSignals, content?: string) {
  return fakeEditor(async (file, stop) => {
    if (content !== undefined) fs.writeFileSync(file, content);
    expect(signals.terminate(), 'soul edit listens for SIGTERM while the editor is open').toBe(true);
    expect(stop?.aborted, 'the editor is told to stop').toBe(true);
    throw new EditorError("the editor 'fake-editor' was stopped by SIGTERM");
  });
}

it.each([
  ['a saved change', BOLD],
  ['nothing saved yet (the editor may keep its own rescue file beside it)', undefined],
])(
  'SIGTERM with the editor open, %s: exit 143 saying where the edit is kept; nothing uploaded',
  async (_what, content) => {
    const signals = new FakeSignals();
    const editor = terminatedEditor(signals, content);
    const r = await cli(['soul', 'edit', 'demo', '--yes'], { editor, signals, env: { SUPERAGENT_DATA_DIR: data } });
    expect(r.code).toBe(143);
    const file = fixture.keptIn(r.stderr, 'Terminated');
    expect(fs.readdirSync(tmp)).toEqual([]);
    expect(fs.readFileSync(file!, 'utf8')).toBe(content ?? START);
    expect(service.cliRequests().map((q) => q.method)).toEqual(['GET', 'GET']);
    expect((await service.call('GET', `/v1/superagents/${demo}/files`)).json.soul_md).toBe(START);
    expect(signals.terminateListeners).toBe(0);
  },
);

it('after the editor, SIGTERM is no longer taken by soul edit', async () => {
  const signals = new FakeSignals();
  const editor = fakeEditor((file) => fs.writeFileSync(file, BOLD));
  const r = await cli(['soul', 'edit', 'demo', '--yes'], { editor, signals, env: { SUPERAGENT_DATA_DIR: data } });
  expect([r.code, r.stderr]).toEqual([0, '']);
  expect(signals.terminateListeners).toBe(0);
});
