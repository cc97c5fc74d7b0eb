// `superagent health <agent> [--watch [SECONDS]]` through the commands layer (docs/cli.md, superagent
// health; Exit codes): one check (exit 8 when unhealthy), or a check every SECONDS until Ctrl-C. The watch
// runs on a FakeClock (its waits return at once and are recorded) and ends by --count or by a
// Ctrl-C pressed through FakeSignals: no test waits in real time.
import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { FakeClock, FakeSignals, cliFor, runLine } from '../helpers/context.js';
import { perTest } from '../helpers/service-support.js';
import { launchAgent, type TestService } from '../helpers/service.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const SICK_HINT = "'superagent restart sick' starts it in a fresh container";

let service: TestService;
let id: string;
const scratch = perTest();
const cli = cliFor(() => service);

/** A clock that presses Ctrl-C at the start of its `nth` wait. */
class CtrlCOnWait extends FakeClock {
  private waits = 0;
  constructor(
    private readonly signals: FakeSignals,
    private readonly nth: number,
  ) {
    super();
  }

  override async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (++this.waits === this.nth) expect(this.signals.interrupt()).toBe(true);
    return super.sleep(ms, signal);
  }
}

/** Piped watch output as [time, word, ...rest] per line; every time an ISO timestamp. */
function watchLines(stdout: string): string[][] {
  expect(stdout.endsWith('\n')).toBe(true);
  const lines = stdout
    .slice(0, -1)
    .split('\n')
    .map((l) => l.split('\t'));
  for (const [at] of lines) expect(at).toMatch(ISO);
  return lines.map(([, ...rest]) => rest);
}

describe('health <agent>: a healthy agent', () => {
  beforeEach(async () => {
    service = await scratch.service();
    id = (await launchAgent(service, { name: 'demo' })).agent_id;
  });

  it('prints healthy and exits 0; --json prints the answer; on a terminal it names the agent', async () => {
    expect(await cli('health demo')).toEqual({ code: 0, stdout: 'healthy\n', stderr: '', asked: [] });
    const json = await cli('health demo --json');
    expect([json.code, json.stderr]).toEqual([0, '']);
    expect(JSON.parse(json.stdout)).toEqual({ agent_id: id, healthy: true });
    expect(await cli('health demo', { tty: true })).toEqual({
      code: 0,
      stdout: 'demo is healthy\n',
      stderr: '',
      asked: [],
    });
  });

  it('--watch 1 --count 2 piped: one timestamped line per check, the interval waited between them', async () => {
    const clock = new FakeClock();
    const r = await cli('health demo --watch 1 --count 2', { clock });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(watchLines(r.stdout)).toEqual([['healthy'], ['healthy']]);
    expect(clock.slept).toEqual([1000]); // between the checks; none after the last
  });

  it('--watch alone waits 2 seconds; --count alone implies --watch', async () => {
    const clock = new FakeClock();
    const r = await cli('health demo --watch --count 3', { clock });
    expect(watchLines(r.stdout)).toEqual([['healthy'], ['healthy'], ['healthy']]);
    expect(clock.slept).toEqual([2000, 2000]);
    const counted = new FakeClock();
    const c = await cli('health demo --count 2', { clock: counted });
    expect(watchLines(c.stdout)).toHaveLength(2);
    expect(counted.slept).toEqual([2000]);
  });

  it('--watch --json prints each answer as one JSON line', async () => {
    const r = await cli('health demo --watch 1 --count 2 --json', { clock: new FakeClock() });
    expect(r).toEqual({
      code: 0,
      stdout: `${JSON.stringify({ agent_id: id, healthy: true })}\n`.repeat(2),
      stderr: '',
      asked: [],
    });
  });

  it('an agent gone during --watch (404) ends the watch at once: exit 4', async () => {
    const clock = new FakeClock();
    const r = await cli(['health', randomUUID(), '--watch', '1', '--count', '3'], { clock });
    expect(watchLines(r.stdout)).toEqual([['error', 'Agent not found']]);
    expect(clock.slept).toEqual([]);
    expect([r.code, r.stderr]).toEqual([4, 'Error: Agent not found\n']);
  });

  it('a check that fails for a passing reason (5xx after the retries) is shown and the watch goes on', async () => {
    const failing = await scratch.service({ faults: { errorRate: 1 } });
    const clock = new FakeClock();
    const r = await runLine(failing, ['health', randomUUID(), '--watch', '1', '--count', '2'], { clock });
    const lines = watchLines(r.stdout);
    expect(lines).toHaveLength(2);
    expect(lines.every(([state]) => state === 'error')).toBe(true);
    expect(clock.slept.filter((ms) => ms === 1000)).toHaveLength(1); // one interval between the two checks
    expect(r.code).toBe(7); // the last check decides
  });

  it('with --json a failed check is a JSON error line on stderr', async () => {
    const r = await cli(['health', randomUUID(), '--watch', '1', '--count', '2', '--json'], { clock: new FakeClock() });
    const failed = JSON.stringify({ error: { message: 'Agent not found', exit_code: 4 } });
    expect(r).toEqual({ code: 4, stdout: '', stderr: `${failed}\nError: Agent not found\n${failed}\n`, asked: [] });
  });

  it.each([
    ['0', "--watch must be a number from 1 to 86400, not '0'"],
    ['0.5', "--watch must be a number from 1 to 86400, not '0.5'"],
    ['86401', "--watch must be a number from 1 to 86400, not '86401'"],
    ['abc', "--watch takes a number of seconds, not 'abc' (see 'superagent health --help')"],
  ])('--watch %s exits 2 before any request', async (value, message) => {
    service.cliRequests();
    const r = await cli(['health', 'demo', '--watch', value], { clock: new FakeClock() });
    expect(r).toEqual({ code: 2, stdout: '', stderr: `Error: ${message}\n`, asked: [] });
    expect(service.cliRequests()).toEqual([]);
  });

  // the old e2e test's argv: the word after --watch is its value, whatever option follows
  it('--watch abc names --watch when another option follows too', async () => {
    service.cliRequests();
    const r = await cli('health demo --watch abc --debug', { clock: new FakeClock() });
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr: "Error: --watch takes a number of seconds, not 'abc' (see 'superagent health --help')\n",
      asked: [],
    });
    expect(service.cliRequests()).toEqual([]);
  });

  it('--count 0 exits 2 before any request', async () => {
    service.cliRequests();
    const r = await cli('health demo --watch 1 --count 0', { clock: new FakeClock() });
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr: "Error: --count must be a whole number at least 1, not '0'\n",
      asked: [],
    });
    expect(service.cliRequests()).toEqual([]);
  });
});

describe('health --watch and Ctrl-C', () => {
  beforeEach(async () => {
    service = await scratch.service();
    id = (await launchAgent(service, { name: 'demo' })).agent_id;
  });

  it('Ctrl-C between checks ends the watch with exit 130, the checks so far printed', async () => {
    const signals = new FakeSignals();
    const clock = new CtrlCOnWait(signals, 3);
    const r = await cli('health demo --watch 1', { clock, signals });
    expect([r.code, r.stderr]).toEqual([130, '']);
    expect(watchLines(r.stdout)).toEqual([['healthy'], ['healthy'], ['healthy']]);
    expect(clock.slept).toEqual([1000, 1000]); // the third wait was cut short
  });

  it('Ctrl-C while a check is under way: exit 130 at once, nothing printed', async () => {
    const signals = new FakeSignals();
    const clock = new FakeClock();
    let settled = false;
    const pending = cli(['health', id, '--watch', '1'], { clock, signals }).finally(() => (settled = true));
    // the watch listens from just before its first check goes out
    while (!settled && !signals.interrupt()) await new Promise((resolve) => setImmediate(resolve));
    expect(await pending).toEqual({ code: 130, stdout: '', stderr: '', asked: [] });
    expect(clock.slept).toEqual([]);
  });

  it('on a terminal: one line redrawn in place, ended with a newline at Ctrl-C', async () => {
    const signals = new FakeSignals();
    const r = await cli('health demo --watch 5', { tty: true, clock: new CtrlCOnWait(signals, 2), signals });
    expect([r.code, r.stderr]).toEqual([130, '']);
    expect(r.stdout.endsWith('\n')).toBe(true);
    const draws = r.stdout.slice(0, -1).split('\r\x1b[2K');
    expect(draws.shift()).toBe('');
    expect(draws).toEqual([
      expect.stringMatching(/^healthy {2}1 check, 0 failed · last at \d\d:\d\d:\d\d · demo · Ctrl-C to stop$/),
      expect.stringMatching(/^healthy {2}2 checks, 0 failed · last at \d\d:\d\d:\d\d · demo · Ctrl-C to stop$/),
    ]);
  });

  it('on a narrow terminal the line is clipped to fit', async () => {
    const r = await cli('health demo --watch 1 --count 1', {
      tty: { stdout: true, stderr: true, columns: 40 },
      clock: new FakeClock(),
    });
    expect(r.code).toBe(0);
    const draw = r.stdout.slice('\r\x1b[2K'.length, -1);
    // one column spare, or a carriage return would redraw only the last row
    expect(draw).toMatch(/^healthy {2}1 check, 0 failed · last at \d…$/);
    expect([...draw]).toHaveLength(39);
  });
});

describe('health against an unhealthy agent', () => {
  beforeEach(async () => {
    service = await scratch.service({ faults: { unhealthy: true } });
    id = (await launchAgent(service, { name: 'sick' })).agent_id;
  });

  it('prints unhealthy and exits 8, the restart hint on stderr', async () => {
    expect(await cli('health sick')).toEqual({
      code: 8,
      stdout: 'unhealthy\n',
      stderr: `Error: sick is unhealthy (${SICK_HINT})\n`,
      asked: [],
    });
    const tty = await cli('health sick', { tty: true });
    expect([tty.code, tty.stdout]).toEqual([8, 'sick is unhealthy\n']);
  });

  it('--json still prints the answer on stdout, and exits 8', async () => {
    const r = await cli('health sick --json');
    expect(r.code).toBe(8);
    expect(JSON.parse(r.stdout)).toEqual({ agent_id: id, healthy: false });
  });

  it('--watch --count 2 exits 8 when the last check was unhealthy', async () => {
    const r = await cli('health sick --watch 1 --count 2', { clock: new FakeClock() });
    expect(r.code).toBe(8);
    expect(watchLines(r.stdout)).toEqual([['unhealthy'], ['unhealthy']]);
    expect(r.stderr).toBe(`Error: sick is unhealthy (${SICK_HINT})\n`);
  });

  it('on a terminal the failures are counted', async () => {
    const r = await cli('health sick --watch 1 --count 2', { tty: true, clock: new FakeClock() });
    expect(r.code).toBe(8);
    expect(r.stdout).toMatch(/\r\x1b\[2Kunhealthy {2}2 checks, 2 failed · /);
  });
});
