// What the user types that would spoof a terminal is refused with exit 2 before any
// request: in names, bidi overrides, zero-width and invisible format characters and line separators
// (they show nothing but change what the rest shows); in a model id, and a classic agent's goal and
// instructions, control characters (an escape sequence; tab and newline stay fine in goal and instructions).
import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { cliFor } from '../helpers/context.js';
import { OSC52 } from '../helpers/hostile-text.js';
import { perTest } from '../helpers/service-support.js';
import { launchAgent, type TestService } from '../helpers/service.js';

const t = perTest();
let svc: TestService;
const cli = cliFor(() => svc);

beforeEach(async () => {
  svc = await t.service();
});

const SPOOFS = ['U+202E', 'U+202A', 'U+2069', 'U+200B', 'U+200F', 'U+2060', 'U+2064', 'U+FEFF', 'U+2028', 'U+2029'];
const spoofed = (cp: string) => `ab${String.fromCodePoint(parseInt(cp.slice(2), 16))}cd`;
const CLASSIC = {
  name: 'Whale Watcher',
  goal: 'Spot large wallet moves',
  instructions: 'Alert on transfers above $1M',
};

/** Runs `argv`; it must be exit 2 with `message` and no request. */
async function refusedBeforeAnyRequest(argv: string[], message: string): Promise<void> {
  const r = await cli(argv);
  expect([r.code, r.stdout], JSON.stringify(argv)).toEqual([2, '']);
  expect(r.stderr).toContain(message);
  expect(svc.cliRequests(), JSON.stringify(argv)).toEqual([]);
}

describe('names that would spoof a terminal', () => {
  it('launch, update and classic update refuse each, naming the character', async () => {
    const id = (await launchAgent(svc, { name: 'calm' })).agent_id;
    const classicId = (await svc.call('POST', '/v1/agents', { body: CLASSIC })).json.agent_id;
    svc.cliRequests();
    for (const cp of SPOOFS) {
      const message = `--name: the name must not contain invisible or direction-changing characters (${cp})`;
      await refusedBeforeAnyRequest(['launch', '--name', spoofed(cp)], message);
      await refusedBeforeAnyRequest(['update', id, '--name', spoofed(cp)], message);
      await refusedBeforeAnyRequest(['classic', 'update', classicId, '--name', spoofed(cp)], message);
    }
  });

  it('a fleet file refuses them in a name', async () => {
    const dir = t.scratch('superagent-spoof-');
    const file = path.join(dir, 'superagents.yaml');
    fs.writeFileSync(file, 'agents:\n  - name: "pay\\u202Elive"\n');
    await refusedBeforeAnyRequest(
      ['plan', '-f', file],
      'name must not contain control characters (escape sequences, ' +
        'tabs, line breaks), invisible or direction-changing ones',
    );
  });

  it('letters of a right-to-left script are a name like any other', async () => {
    const r = await cli(['launch', '--name', 'סוכן', '--model', 'gpt-4o']);
    expect(r.code).toBe(0);
  });
});

describe('control characters in a model id, a goal and instructions', () => {
  it('launch --model, model and a fleet file refuse an escape sequence in the model id', async () => {
    const id = (await launchAgent(svc, { name: 'calm' })).agent_id;
    svc.cliRequests();
    await refusedBeforeAnyRequest(
      ['launch', '--name', 'x', '--model', `gpt${OSC52}`, '--provider', 'openai'],
      '--model must not contain control characters',
    );
    await refusedBeforeAnyRequest(
      ['model', id, `gpt${OSC52}`, '--provider', 'openai'],
      'the model id must not contain control characters',
    );
    const file = path.join(t.scratch('superagent-spoof-'), 'superagents.yaml');
    fs.writeFileSync(file, 'agents:\n  - name: a\n    model: "gpt\\e]52;c;eA==\\a"\n');
    await refusedBeforeAnyRequest(['plan', '-f', file], 'model must not contain control characters');
  });

  it('classic update refuses control characters in --goal and --instructions, but tab and newline', async () => {
    const id = (await svc.call('POST', '/v1/agents', { body: CLASSIC })).json.agent_id;
    svc.cliRequests();
    for (const flag of ['--goal', '--instructions']) {
      for (const text of [`spot ${OSC52}`, 'a\u001b[2Jb', 'a\rb', 'a\u009b2Jb']) {
        await refusedBeforeAnyRequest(
          ['classic', 'update', id, flag, text],
          `${flag} must not contain control characters other than tabs and line breaks`,
        );
      }
    }
    const r = await cli(['classic', 'update', id, '--goal', 'one\n\ttwo']);
    expect(r.code).toBe(0);
    expect((await svc.call('GET', `/v1/agents/${id}`)).json.data.goal).toBe('one\n\ttwo');
  });
});
