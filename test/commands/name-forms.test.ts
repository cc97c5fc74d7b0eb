// Names that look the same are one name (sameAgentName): `démo` typed as é or as e + U+0301, `ｄｅｍｏ`
// in full-width letters. The CLI refuses such a launch or rename before sending it, finds the agent by
// either form, and the fleet file and export treat the two as one name; the name is kept as given.
import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { accountId, hashKey } from '../../src/server/auth.js';
import { Store } from '../../src/server/index.js';
import { cliFor } from '../helpers/context.js';
import { perTest } from '../helpers/service-support.js';
import { launchAgent, type TestService, UNFUNDED } from '../helpers/service.js';

const COMPOSED = 'd\u00e9mo'; // é as one character, as most keyboards type it
const DECOMPOSED = 'de\u0301mo'; // e and a combining acute accent, as some systems write it
const FULL_WIDTH = '\uff44\uff45\u0301\uff4d\uff4f'; // ｄｅ́ｍｏ: full-width letters and a combining accent

let service: TestService;
let demo: string;
const scratch = perTest();
const cli = cliFor(() => service);
const requests = () => service.cliRequests().map((r) => `${r.method} ${r.path}`);
const LIST = 'GET /v1/superagents';

async function names(): Promise<string[]> {
  return ((await service.call('GET', '/v1/superagents')).json.agents as Array<{ name: string }>).map((a) => a.name);
}

/** A second live agent under `name`, renamed in its record as a service that allows lookalikes would have it. */
async function lookalike(name: string): Promise<string> {
  const id = (await launchAgent(service, { name: 'placeholder' })).agent_id;
  const store = new Store(service.dataDir).open();
  const account = accountId(hashKey(service.key));
  const stored = store.agents.fresh(account, id)!;
  store.agents.write(account, id, { ...stored, record: { ...stored.record, name } });
  return id;
}

function fleetFile(yaml: string): string {
  const dir = scratch.scratch('superagent-name-forms-');
  fs.writeFileSync(path.join(dir, 'superagents.yaml'), yaml);
  return path.join(dir, 'superagents.yaml');
}

// a service per test, with one live agent whose name is written with a combining accent
beforeEach(async () => {
  service = await scratch.service(UNFUNDED); // not about money: its agents hold nothing
  demo = (await launchAgent(service, { name: DECOMPOSED })).agent_id;
  service.cliRequests();
});

describe('launch and update refuse a name that only looks different', () => {
  it.each([
    ['é as one character', COMPOSED],
    ['in capitals', 'DE\u0301MO'],
    ['in full-width letters', FULL_WIDTH],
  ])('launch --name (%s): exit 6 naming the live agent, nothing sent but the list', async (_, name) => {
    const r = await cli(['launch', '--name', name]);
    expect(r.code).toBe(6);
    expect(r.stderr).toBe(
      `Error: an agent named '${DECOMPOSED}' already exists: ${demo} ` +
        `(choose another name, or pass --allow-duplicate-name)\n`,
    );
    expect(requests()).toEqual([LIST]);
    expect(await names()).toEqual([DECOMPOSED]);
  });

  it('update X --name in another form of a live name: exit 6, X keeps its name', async () => {
    const other = (await launchAgent(service, { name: 'other' })).agent_id;
    service.cliRequests();
    const r = await cli(['update', 'other', '--name', COMPOSED]);
    expect(r.code).toBe(6);
    expect(r.stderr).toContain(`already exists: ${demo}`);
    expect(requests()).toEqual([LIST]);
    expect((await service.call('GET', `/v1/superagents/${other}`)).json.name).toBe('other');
  });

  it('the name is kept as it was given: the agent launched with a combining accent still has it', async () => {
    expect(await names()).toEqual([DECOMPOSED]);
  });
});

describe('a reference finds the agent by any form of its name', () => {
  it.each([[COMPOSED], [DECOMPOSED], ['DÉMO'], [FULL_WIDTH]])('get %s', async (ref) => {
    const r = await cli(['get', ref, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).agent_id).toBe(demo);
  });

  it(
    'two live agents whose names only look different (from a ' + 'service that allowed it): exit 4 naming both',
    async () => {
      const twin = await lookalike(COMPOSED);
      service.cliRequests();
      const r = await cli(['get', COMPOSED]);
      expect(r.code).toBe(4);
      expect(r.stderr).toContain(
        `names several agents: ${COMPOSED} (${twin.slice(0, 8)}), ${DECOMPOSED} (${demo.slice(0, 8)})`,
      );
    },
  );
});

describe('the fleet file', () => {
  it('two agents whose names only look different: exit 2 at the second, before any request', async () => {
    const file = fleetFile(`agents:\n  - name: ${COMPOSED}\n  - name: ${DECOMPOSED}\n`);
    const r = await cli(['plan', '-f', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`superagents.yaml:3:11: the name '${DECOMPOSED}' is already used at line 2`);
    expect(requests()).toEqual([]);
  });

  it(
    'the file names the agent in another Unicode form: matched, ' +
      'and no change (no rename to the same-looking name)',
    async () => {
      const file = fleetFile(`agents:\n  - name: ${COMPOSED}\n`);
      const r = await cli(['plan', '-f', file, '--detailed-exit-code']);
      expect(r.stdout).toContain('No changes');
      expect(r.code, r.stdout).toBe(0);
    },
  );

  it('in full-width letters it is the same agent, renamed (the difference shows)', async () => {
    const file = fleetFile(`agents:\n  - name: ${FULL_WIDTH}\n`);
    const r = await cli(['plan', '-f', file, '--json']);
    const plan = JSON.parse(r.stdout);
    expect(plan.agents).toEqual([expect.objectContaining({ action: 'update', agent_id: demo })]);
    expect(plan.agents[0].changes).toEqual([{ field: 'name', from: DECOMPOSED, to: FULL_WIDTH }]);
  });

  it(
    'apply --prune on a terminal: the name typed as the keyboard ' +
      'makes it (é as one character) confirms the destroy',
    async () => {
      await launchAgent(service, { name: 'keeper' });
      const file = fleetFile('agents:\n  - name: keeper\n');
      service.cliRequests();
      const r = await cli(['apply', '-f', file, '--prune'], { tty: true, answers: [true, COMPOSED] });
      expect(r.code, r.stderr).toBe(0);
      expect(requests().filter((q) => !q.startsWith('GET '))).toEqual([`DELETE /v1/superagents/${demo}`]);
    },
  );

  it('export of two live agents whose names only look different: exit 2, nothing written', async () => {
    await lookalike(FULL_WIDTH.toUpperCase());
    const dir = scratch.scratch('superagent-name-forms-export-');
    const r = await cli(['export', '--dir', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`the service has two agents named '${FULL_WIDTH.toUpperCase()}'`);
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
