// A fleet file with problems: each is exit 2 naming the file, the line and the column and
// what is wrong, before any request; and the schema that `superagent schema` prints is the one used.
import fs from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { FakeClock, cliFor } from '../helpers/context.js';
import { hasReader, unwrittenFifo } from '../helpers/fifo-watch.js';
import { perTest } from '../helpers/service-support.js';
import { launchAgent, type TestService } from '../helpers/service.js';

const t = perTest();
let svc: TestService;
let dir: string;
const cli = cliFor(() => svc);

beforeEach(async () => {
  svc = await t.service();
  dir = t.scratch('superagent-fleet-file-');
});

/** Writes `text` as the fleet file and plans it; the answer is an error before any request. */
async function problems(text: string, files: Record<string, string> = {}): Promise<string> {
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), content);
  }
  fs.writeFileSync(path.join(dir, 'superagents.yaml'), text);
  const r = await cli(['plan', '-f', path.join(dir, 'superagents.yaml')]);
  expect([r.code, r.stdout]).toEqual([2, '']);
  expect(svc.cliRequests()).toEqual([]);
  return r.stderr.replaceAll(path.join(dir, 'superagents.yaml'), 'FILE');
}

const HINT = " (see 'superagent schema' for what the file may hold)\n";

describe('a fleet file with problems: exit 2 with FILE:LINE:COL and what is wrong, no request', () => {
  const cases: Array<[string, string, string]> = [
    [
      'a field that does not exist, with its likely meaning',
      'agents:\n  - name: a\n    modle: gpt-4o\n',
      `Error: FILE:3:5: unknown field 'modle' in agents[0] (did you mean 'model'?)${HINT}`,
    ],
    [
      'a status that is not one',
      'agents:\n  - name: a\n    status: stoped\n',
      `Error: FILE:3:13: status must be one of: running, paused (not 'stoped')${HINT}`,
    ],
    [
      'an empty status',
      'agents:\n  - name: a\n    status:\n',
      `Error: FILE:3:5: status must be one of: running, paused (not empty)${HINT}`,
    ],
    [
      'a name YAML reads as a number',
      'agents:\n  - name: 123\n',
      `Error: FILE:2:11: name must be text, not 123 (quote it: '123')${HINT}`,
    ],
    [
      'an agent without a name',
      'agents:\n  - description: x\n',
      `Error: FILE:2:5: agents[0]: 'name' is required${HINT}`,
    ],
    [
      'skills both enabled and disabled',
      'agents:\n  - name: a\n    skills: {enabled: [a], disabled: [b]}\n',
      `Error: FILE:3:13: skills must have either 'enabled' or 'disabled' (a list of skill names), not both${HINT}`,
    ],
    [
      'a skill listed twice (the second is named)',
      'agents:\n  - name: a\n    skills: {enabled: [a, b, a]}\n',
      `Error: FILE:3:30: skills.enabled lists 'a' twice${HINT}`,
    ],
    [
      'a bot token where its variable goes',
      'agents:\n  - name: a\n    bot_token_env: "123:abc"\n',
      `Error: FILE:3:20: bot_token_env must be the name of an environment variable (letters, ` +
        `digits and _, not starting with a digit): the token itself never goes in the file${HINT}`,
    ],
    [
      'a name with an escape sequence',
      'agents:\n  - name: "a\\e[31m"\n',
      `Error: FILE:2:11: name must not contain control characters (escape sequences, tabs, line ` +
        `breaks), invisible or direction-changing ones (U+200B, U+202E) or start or end with a space${HINT}`,
    ],
    [
      'a description over 500 characters',
      `agents:\n  - name: a\n    description: ${'d'.repeat(501)}\n`,
      `Error: FILE:3:18: description must be at most 500 characters (it has 501)${HINT}`,
    ],
    ['an empty file', '', `Error: FILE:1:1: the file is empty: it needs an 'agents:' list${HINT}`],
    [
      'a list instead of a mapping',
      '- a\n- b\n',
      `Error: FILE:1:1: the file must be a mapping (key: value lines), not ["a","b"]${HINT}`,
    ],
    [
      'a YAML syntax error',
      'agents:\n  - name: [a\n',
      'Error: FILE:3:1: Flow sequence in block collection must be sufficiently indented and end with ' +
        'a ] (check the indentation and brackets there (the README has a complete example))\n',
    ],
    [
      'a key given twice',
      'agents:\n  - name: a\n    name: b\n',
      'Error: FILE:3:5: Map keys must be unique (check the indentation ' +
        'and brackets there (the README has a complete example))\n',
    ],
    [
      'two agents of one name (names match whatever their case)',
      'agents:\n  - name: scout\n  - name: Scout\n',
      "Error: FILE:3:11: the name 'Scout' is already used at line 2 " +
        '(agents are matched by name, so names must be unique)\n',
    ],
    [
      'a soul file that is not there',
      'agents:\n  - name: a\n    soul: souls/a.md\n',
      "Error: FILE:3:11: soul file 'souls/a.md' does not exist (soul paths are relative to the file)\n",
    ],
  ];

  it('a soul file with a NUL byte, named as the file names it', async () => {
    const stderr = await problems('agents:\n  - name: a\n    soul: souls/a.md\n', { 'souls/a.md': '# a\n\0\n' });
    const said = "soul file 'souls/a.md' contains a NUL byte (\\0), on line 2 (soul paths are relative to the file)";
    expect(stderr).toBe(`Error: FILE:3:11: ${said}\n`);
  });

  it.each(cases)('%s', async (_what, text, expected) => {
    expect(await problems(text)).toBe(expected);
  });

  it(
    'a model whose provider cannot be told, for an agent ' + 'to launch (found after the list, before any write)',
    async () => {
      fs.writeFileSync(path.join(dir, 'superagents.yaml'), 'agents:\n  - name: a\n    model: llama-3\n');
      const r = await cli(['apply', '-f', path.join(dir, 'superagents.yaml'), '--yes']);
      expect(r.code).toBe(2);
      expect(r.stderr.replaceAll(path.join(dir, 'superagents.yaml'), 'FILE')).toBe(
        "Error: FILE:3:12: cannot tell which provider serves model 'llama-3' (add " +
          'provider: one of openai, anthropic, xai, openrouter, venice)\n',
      );
      expect(svc.cliRequests().map((q) => q.method)).toEqual(['GET']);
    },
  );

  it('every problem at once, in file order', async () => {
    const stderr = await problems(
      'agents:\n  - name: a\n    status: stoped\n  - name: 7\n    soul: souls/x.md\n    colour: red\n',
    );
    expect(stderr).toBe(
      'Error: FILE has 3 problems:\n' +
        "  FILE:3:13: status must be one of: running, paused (not 'stoped')\n" +
        "  FILE:4:11: name must be text, not 7 (quote it: '7')\n" +
        "  FILE:6:5: unknown field 'colour' in agents[1] (expected one of: name, " +
        'description, model, provider, soul, skills, status, bot_token_env)' +
        HINT,
    );
  });

  it('a skill the service does not know is named at its place, with the skills it does know', async () => {
    await launchAgent(svc, { name: 'existing' });
    fs.writeFileSync(
      path.join(dir, 'superagents.yaml'),
      'agents:\n  - name: existing\n  - name: new\n    skills: {enabled: [market-intel, hyperliqud]}\n',
    );
    const r = await cli(['plan', '-f', path.join(dir, 'superagents.yaml')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      new RegExp(
        `^Error: .*superagents\\.yaml:4:38: unknown skill 'hyperliqud' for ` +
          `new \\(did you mean 'hyperliquid'\\? available: hyperliquid, `,
      ),
    );
  });

  it('no file: exit 2 saying how to make one', async () => {
    const r = await cli(['plan', '-f', path.join(dir, 'nowhere.yaml')]);
    expect([r.code, r.stderr]).toEqual([
      2,
      `Error: ${path.join(dir, 'nowhere.yaml')} not found (give another file with ` +
        `-f FILE, or write one from your agents with 'superagent export')\n`,
    ]);
  });
});

describe.skipIf(process.platform === 'win32')('a FIFO given as the fleet file', () => {
  it.each([['plan'], ['apply']])(
    '%s -f FIFO, nobody writing: exit 2 naming it after --timeout, the FIFO let go',
    async (verb) => {
      const fifo = unwrittenFifo(path.join(dir, 'superagents.yaml'), t);
      const r = await cli([verb, '-f', fifo, '--timeout', '2', '--yes'], { clock: new FakeClock() });
      expect([r.code, r.stdout, r.stderr]).toEqual([
        2,
        '',
        `! Waiting for ${fifo} to end: is something still writing to it? (giving up after 2 s)\n` +
          `Error: ${fifo} did not end within 2 s (close it when done writing, or allow longer with --timeout)\n`,
      ]);
      expect(hasReader(fifo), 'nothing still waits to read it').toBe(false);
      expect(svc.cliRequests()).toEqual([]);
    },
  );
});

describe('a fleet file without end or too large', () => {
  it.each([['plan'], ['apply']])(
    '%s -f /dev/zero: exit 2 saying it is too large, after reading no more than the cap',
    async (verb) => {
      const r = await cli([verb, '-f', '/dev/zero', '--yes']);
      expect([r.code, r.stdout]).toEqual([2, '']);
      expect(r.stderr).toMatch(/^Error: \/dev\/zero is over 4 MiB: a fleet file is far smaller[^\n]*\n$/);
      expect(svc.cliRequests()).toEqual([]);
    },
  );

  it('a regular file over the cap is refused without reading it', async () => {
    const big = path.join(dir, 'superagents.yaml');
    fs.writeFileSync(big, '');
    fs.truncateSync(big, 5 * 1024 * 1024);
    const r = await cli(['plan', '-f', big]);
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toContain(`${big} is 5,120 KiB: a fleet file is far smaller`);
  });
});

describe('superagent schema', () => {
  it('prints the JSON Schema plan checks with: an export passes it, a broken file does not', async () => {
    const r = await cli(['schema']);
    expect(r.code).toBe(0);
    const schema = JSON.parse(r.stdout);
    expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
    const check = new Ajv({ strict: true }).compile(schema);
    await launchAgent(svc, { name: 'alpha', description: 'x' });
    expect((await cli(['export', '--dir', dir])).code).toBe(0);
    const exported = parseDocument(fs.readFileSync(path.join(dir, 'superagents.yaml'), 'utf8')).toJS();
    expect(check(exported), JSON.stringify(check.errors)).toBe(true);
    expect(check({ agents: [{ name: 'a', status: 'stopped' }] })).toBe(false);
    expect(check({ agents: [{ name: 'a', skills: { enabled: [], disabled: [] } }] })).toBe(false);
  });
});
