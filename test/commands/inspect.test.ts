// memory, skills (list/enable/disable) and wallet through the commands layer (docs/cli.md): piped lines
// for scripts, the API answer with --json, tables and fields on a terminal.
import { beforeEach, describe, expect, it } from 'vitest';
import { cliFor } from '../helpers/context.js';
import { perTest } from '../helpers/service-support.js';
import { launchAgent, type TestService } from '../helpers/service.js';

const CATALOGUE = [
  'hyperliquid',
  'polymarket',
  'polymarket-deep-research',
  'evm-wallet',
  'solana-wallet',
  'solana-swap',
  'portfolio-tracker',
  'chain-registry',
  'market-intel',
];
// what a new agent has on
const ON_AT_LAUNCH = ['evm-wallet', 'solana-wallet', 'portfolio-tracker', 'market-intel'];

let service: TestService;
let id: string;
const scratch = perTest();
const cli = cliFor(() => service);

// a service and a new agent 'demo' per test: the skills tests change its skills
beforeEach(async () => {
  service = await scratch.service();
  id = (await launchAgent(service, { name: 'demo' })).agent_id;
});

async function skillStates(): Promise<Record<string, boolean>> {
  const r = await service.call('GET', `/v1/superagents/${id}/skills`);
  expect(r.status).toBe(200);
  return Object.fromEntries(r.json.skills.map((s: { name: string; enabled: boolean }) => [s.name, s.enabled]));
}

const launchStates = () => Object.fromEntries(CATALOGUE.map((n) => [n, ON_AT_LAUNCH.includes(n)]));

describe('memory <agent>', () => {
  it('prints memory.md byte for byte, including what a chat asked to remember', async () => {
    const chat = await service.call('POST', `/v1/superagents/${id}/chat`, {
      body: { message: 'remember that I prefer SOL over ETH' },
    });
    expect(chat.status, chat.text).toBe(200);
    const files = await service.call('GET', `/v1/superagents/${id}/files`);
    expect(files.json.memory_md).toMatch(/- \d{4}-\d{2}-\d{2}: I prefer SOL over ETH\n$/);
    const r = await cli('memory demo');
    expect(r).toEqual({ code: 0, stdout: files.json.memory_md, stderr: '', asked: [] });
    // on a terminal the same text (it ends in a newline already)
    expect(await cli('memory demo', { tty: true })).toEqual(r);
  });

  it('--json prints { agent_id, memory_md }, by id prefix', async () => {
    const files = await service.call('GET', `/v1/superagents/${id}/files`);
    const r = await cli(['memory', id.slice(0, 6), '--json']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(JSON.parse(r.stdout)).toEqual({ agent_id: id, memory_md: files.json.memory_md });
  });

  it('an unknown agent exits 4', async () => {
    const r = await cli('memory nobody');
    expect(r).toEqual({
      code: 4,
      stdout: '',
      stderr: "Error: no agent matches 'nobody' (see 'superagent list')\n",
      asked: [],
    });
  });
});

describe('skills <agent>', () => {
  it('piped: one name<TAB>on|off line per skill, in the service order', async () => {
    const r = await cli('skills demo');
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toBe(CATALOGUE.map((n) => `${n}\t${ON_AT_LAUNCH.includes(n) ? 'on' : 'off'}\n`).join(''));
  });

  it('--json prints the API answer', async () => {
    const api = await service.call('GET', `/v1/superagents/${id}/skills`);
    const r = await cli('skills demo --json');
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(JSON.parse(r.stdout)).toEqual(api.json);
  });

  it('on a terminal: a table with a header, each description clipped to the terminal width', async () => {
    const columns = 90;
    const r = await cli('skills demo', { tty: { stdout: true, stderr: true, columns } });
    expect([r.code, r.stderr]).toEqual([0, '']);
    const [head, ...rows] = r.stdout.trimEnd().split('\n');
    expect(head).toMatch(/^NAME {2,}ENABLED {2}DESCRIPTION$/);
    expect(rows.map((row) => row.split(/ {2,}/).slice(0, 2))).toEqual(
      CATALOGUE.map((n) => [n, ON_AT_LAUNCH.includes(n) ? 'on' : 'off']),
    );
    for (const row of rows) expect([...row].length).toBeLessThanOrEqual(columns);
    expect(rows.some((row) => row.endsWith('…'))).toBe(true); // at 90 columns some descriptions are cut
    expect(r.stdout).not.toContain('\x1b['); // TERM=dumb: no colour
  });

  it('on a colour terminal the states are coloured, unless --no-color or NO_COLOR', async () => {
    const colour = { tty: true, env: { TERM: 'xterm-256color' } } as const;
    const r = await cli('skills demo', colour);
    expect(r.stdout).toContain('\x1b[32mon\x1b[39m');
    expect(r.stdout).toContain('\x1b[31moff\x1b[39m');
    expect((await cli('skills demo --no-color', colour)).stdout).not.toContain('\x1b[');
    expect((await cli('skills demo', { ...colour, env: { ...colour.env, NO_COLOR: '1' } })).stdout).not.toContain(
      '\x1b[',
    );
  });
});

describe('skills enable / disable', () => {
  it('enables several skills in one go and prints their new state', async () => {
    const r = await cli('skills enable demo hyperliquid polymarket');
    expect(r).toEqual({ code: 0, stdout: 'hyperliquid\ton\npolymarket\ton\n', stderr: '', asked: [] });
    expect(await skillStates()).toEqual({ ...launchStates(), hyperliquid: true, polymarket: true });
  });

  it('disables skills, and --json prints the API answer (the full list)', async () => {
    await cli('skills enable demo hyperliquid');
    const r = await cli('skills disable demo evm-wallet hyperliquid --json');
    expect([r.code, r.stderr]).toEqual([0, '']);
    const after = await service.call('GET', `/v1/superagents/${id}/skills`);
    expect(JSON.parse(r.stdout)).toEqual(after.json);
    expect(await skillStates()).toEqual({ ...launchStates(), 'evm-wallet': false });
  });

  it('on a terminal: a line per skill, saying what changed and what already was so', async () => {
    const r = await cli('skills enable demo hyperliquid evm-wallet', { tty: true });
    expect(r).toEqual({
      code: 0,
      stdout: '✓ Enabled hyperliquid on demo\n✓ evm-wallet was already enabled on demo\n',
      stderr: '',
      asked: [],
    });
    const off = await cli('skills disable demo market-intel', { tty: true });
    expect(off.stdout).toBe('✓ Disabled market-intel on demo\n');
    expect(await skillStates()).toEqual({ ...launchStates(), hyperliquid: true, 'market-intel': false });
  });

  it('nothing to change sends no write', async () => {
    service.cliRequests();
    const r = await cli('skills enable demo evm-wallet');
    expect(r.stdout).toBe('evm-wallet\ton\n');
    expect(service.cliRequests().map((e) => e.method)).toEqual(['GET', 'GET']); // the list, the skills
  });

  it('an unknown skill exits 2 naming the valid ones, sends no PUT and changes nothing', async () => {
    service.cliRequests();
    const r = await cli('skills enable demo solana-swap moon-shot');
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr: `Error: unknown skill 'moon-shot' for demo (available: ${CATALOGUE.join(', ')})\n`,
      asked: [],
    });
    // the skills were read to check the names; nothing was written
    expect(service.cliRequests().map((e) => `${e.method} ${e.path}`)).toEqual([
      'GET /v1/superagents',
      `GET /v1/superagents/${id}/skills`,
    ]);
    expect(await skillStates()).toEqual(launchStates());
  });

  it('no skill named exits 2 before any request', async () => {
    service.cliRequests();
    const r = await cli('skills disable demo');
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr: 'Error: missing <skill> (usage: superagent skills disable <agent> <skill...> [options])\n',
      asked: [],
    });
    expect(service.cliRequests()).toEqual([]);
  });
});

describe('wallet <agent> --no-balances', () => {
  it('piped: evm and solana lines; --json: the API answer', async () => {
    const api = await service.call('GET', `/v1/superagents/${id}/wallet`);
    expect(api.json.evm_address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const piped = await cli('wallet demo --no-balances');
    expect(piped).toEqual({
      code: 0,
      stdout: `evm\t${api.json.evm_address}\nsolana\t${api.json.solana_address}\n`,
      stderr: '',
      asked: [],
    });
    const json = await cli('wallet demo --no-balances --json');
    expect([json.code, json.stderr]).toEqual([0, '']);
    expect(JSON.parse(json.stdout)).toEqual({ agent_id: id, ...api.json });
  });

  it('on a terminal: aligned fields', async () => {
    const api = await service.call('GET', `/v1/superagents/${id}/wallet`);
    const r = await cli('wallet demo --no-balances', { tty: true });
    expect(r).toEqual({
      code: 0,
      stdout: `EVM:     ${api.json.evm_address}\nSolana:  ${api.json.solana_address}\n`,
      stderr: '',
      asked: [],
    });
  });

  it('an unknown agent exits 4', async () => {
    const r = await cli('wallet nobody');
    expect([r.code, r.stdout]).toEqual([4, '']);
  });
});
