// The live loop of `top` (src/cli/top/live.ts) on a stand-in screen against the embedded service:
// the frame shows every agent, keys select and pause, P asks first, Enter shows positions, c lends the
// terminal to the chat and takes it back, q gives the screen back.
import { describe, expect, it } from 'vitest';
import { InterruptedError, TerminatedError } from '../../src/core/errors.js';
import { runLive, type JobControl, type LiveKey, type ScreenHandlers } from '../../src/cli/top/live.js';
import { launchAgent } from '../helpers/service.js';
import { perTest } from '../helpers/service-support.js';
import { feedOn } from '../helpers/top-feed.js';
import { FakeClock, SOURCES_OFF, type Capture } from '../helpers/context.js';
import { agentPath } from '../helpers/superagent-fixtures.js';

const t = perTest();

/** A clock whose interval sleeps wait for the test (`tick`: time moves on and they end) or the loop's end. */
class HeldClock extends FakeClock {
  private held: Array<() => void> = [];
  override async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(new InterruptedError());
      this.held.push(() => void super.sleep(ms).then(resolve));
      signal?.addEventListener('abort', () => reject(new InterruptedError()), { once: true });
    });
  }
  tick(): void {
    for (const go of this.held.splice(0)) go();
  }
}

class FakeScreen {
  frames: string[][] = [];
  calls: string[] = [];
  handlers!: ScreenHandlers;
  size = { columns: 100, rows: 20 };
  enter = () => void this.calls.push('enter');
  leave = () => void this.calls.push('leave');
  suspend = () => void this.calls.push('suspend');
  resume = () => void this.calls.push('resume');
  draw = (lines: readonly string[]) => void this.frames.push([...lines]);
  get text(): string {
    return (this.frames.at(-1) ?? []).join('\n');
  }
  press(...keys: Array<string | LiveKey>): void {
    for (const k of keys) this.handlers.onKey(typeof k === 'string' ? { name: 'char', char: k } : k);
  }
}

async function until(what: string, ok: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await ok()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`never: ${what}`);
}

async function live(chat?: (a: { name: string }) => Promise<unknown>, jobs?: JobControl) {
  const svc = await t.service();
  const ids: string[] = [];
  const names = ['alpha', 'beta'];
  for (const name of names) ids.push((await launchAgent(svc, { name })).agent_id);
  const clock = new HeldClock();
  const { feed, ctx, pacer } = await feedOn(svc, { env: SOURCES_OFF, clock });
  const screen = new FakeScreen();
  const done = runLive(ctx, await ctx.api(), feed, { intervalMs: 5_000, pacer, chat, jobs }, (h) => {
    screen.handlers = h;
    return screen;
  });
  await until('both agents shown', () => /alpha[\s\S]*beta/.test(screen.text));
  // the rows in the list's order (newest first)
  const order = [...screen.text.matchAll(/^[› ] (alpha|beta) /gm)].map((m) => m[1]!);
  const statusOf = async (name: string) => (await svc.call('GET', agentPath(ids[names.indexOf(name)]!))).json.status;
  const idOf = (name: string) => ids[names.indexOf(name)]!;
  return { screen, done, statusOf, order, pacer, ctx, svc, idOf, clock };
}

describe('top live', () => {
  it('j then p pauses the second agent; q gives the screen back', async () => {
    const { screen, done, statusOf, order } = await live();
    const [first, second] = order;
    expect(screen.calls).toEqual(['enter']);
    expect(screen.text).toContain('p pause');
    // the budget as given, its reserve for the keys included
    expect(screen.text).toContain('budget 30/min');
    screen.press('j', 'p');
    await until('the second paused', async () => (await statusOf(second!)) === 'paused');
    await until('said', () => screen.text.includes(`${second} paused`));
    expect(screen.text).toMatch(new RegExp(`› ${second} +paused`));
    expect(await statusOf(first!)).toBe('running');
    screen.press('q');
    await done;
    expect(screen.calls).toEqual(['enter', 'leave']);
  });

  it('P asks first: n does nothing, y pauses every running agent, the budget spent or not', async () => {
    const { screen, done, statusOf, pacer } = await live();
    // the refresh has used the whole budget: the kill switch must not wait for the window (this clock never moves)
    while (pacer.reads.room() > 0) {
      await pacer.beforeRequest();
      pacer.afterRequest();
    }
    screen.press('P');
    expect(screen.text).toContain('Pause all 2 running agents? y/n');
    screen.press('n');
    expect(screen.text).toContain('pause all: nothing done');
    screen.press('P', 'y');
    await until(
      'all paused',
      async () => (await statusOf('alpha')) === 'paused' && (await statusOf('beta')) === 'paused',
    );
    await until('said', () => screen.text.includes('2 agents paused'));
    // Ctrl-C at the keyboard ends as Ctrl-C does (exit 130), the screen given back first
    screen.press({ name: 'ctrl', char: 'c' });
    await expect(done).rejects.toBeInstanceOf(InterruptedError);
    expect(screen.calls.at(-1)).toBe('leave');
  });

  it('Enter shows the positions, Esc comes back; c suspends the screen for the chat and resumes', async () => {
    const chats: string[] = [];
    const { screen, done, order } = await live(async (a) => void chats.push(a.name));
    screen.press({ name: 'enter' });
    await until('positions', () => screen.text.includes(`Positions of ${order[0]}`));
    screen.press({ name: 'escape' });
    expect(screen.text).toContain('NAME');
    screen.press('c');
    await until('chat over', () => screen.calls.includes('resume'));
    expect(chats).toEqual([order[0]]);
    expect(screen.calls).toEqual(['enter', 'suspend', 'resume']);
    screen.press('q');
    await done;
  });

  it('a signal: the screen is given back and the loop ends with it', async () => {
    const { screen, done } = await live();
    screen.handlers.onStop(new InterruptedError());
    await expect(done).rejects.toBeInstanceOf(InterruptedError);
    expect(screen.calls).toEqual(['enter', 'leave']);
  });

  it('q while the kill switch is on its way: top leaves once the pauses are answered, and says so', async () => {
    const { screen, done, statusOf, ctx } = await live();
    screen.press('P', 'y', 'q');
    await done;
    expect([await statusOf('alpha'), await statusOf('beta')]).toEqual(['paused', 'paused']);
    expect((ctx.io.stderr as Capture).text).toContain('paused 2 agents');
    expect(screen.calls.at(-1)).toBe('leave');
  });

  it('a pause that fails while leaving is said and ends top in failure; a signal keeps its own ending', async () => {
    const { screen, done, svc, idOf, ctx } = await live();
    screen.press('P');
    await svc.call('DELETE', agentPath(idOf('beta')));
    screen.press('y');
    screen.handlers.onStop(new TerminatedError());
    await expect(done).rejects.toBeInstanceOf(TerminatedError);
    const said = (ctx.io.stderr as Capture).text;
    expect(said).toContain('paused 1 agent');
    expect(said.split('\n').filter((l) => l.includes('beta not paused'))).toHaveLength(1);
  });

  it('q after a failed pause still on its way: the failure is the ending', async () => {
    const { screen, done, svc, idOf } = await live();
    screen.press('P');
    await svc.call('DELETE', agentPath(idOf('beta')));
    screen.press('y', 'q');
    await expect(done).rejects.toThrow(/beta not paused/);
  });

  it('p held down: one request at a time for an agent, the repeats said busy and ignored', async () => {
    const { screen, done, statusOf, order } = await live();
    const [first] = order;
    screen.press('p', 'p', 'r');
    expect(screen.text).toContain(`busy: pausing ${first}…`);
    await until('said', () => screen.text.includes(`${first} paused`));
    expect(await statusOf(first!)).toBe('paused');
    screen.press('r');
    await until('resumed', () => screen.text.includes(`${first} resumed`));
    expect(await statusOf(first!)).toBe('running');
    screen.press('q');
    await done;
  });

  it('P: an agent found already paused is not a failure', async () => {
    const { screen, done, svc, idOf } = await live();
    await svc.call('POST', `${agentPath(idOf('alpha'))}/pause`);
    screen.press('P');
    expect(screen.text).toContain('Pause all 2 running agents? y/n');
    screen.press('y');
    await until('said', () => screen.text.includes('1 agent paused, 1 already paused'));
    expect(screen.text).not.toContain('not running');
    screen.press('q');
    await done;
  });
  it('SIGTERM or SIGHUP in the chat ends top; a SIGINT there ends the chat only', async () => {
    let ending: Error = new InterruptedError();
    const { screen, done } = await live(async () => {
      throw ending;
    });
    screen.press('c');
    await until('back from the chat', () => screen.calls.includes('resume'));
    ending = new TerminatedError('SIGHUP');
    screen.press('c');
    await expect(done).rejects.toBeInstanceOf(TerminatedError);
    expect(screen.calls).toEqual(['enter', 'suspend', 'resume', 'suspend', 'leave']);
  });
  it('the positions view is read again every interval, with its own keys: p pauses that agent', async () => {
    const { screen, done, order, clock, statusOf } = await live();
    screen.press({ name: 'enter' });
    await until(
      'positions',
      () => screen.text.includes(`Positions of ${order[0]}`) && screen.text.includes('read now'),
    );
    expect(screen.text).toContain('Esc back');
    expect(screen.text).not.toContain('P pause all');
    clock.tick();
    await until('read again', () => screen.frames.some((f) => f.join('\n').includes('read 5s ago')));
    await until('read now', () => screen.text.includes('read now'));
    screen.press('p');
    await until('paused', async () => (await statusOf(order[0]!)) === 'paused');
    expect(screen.text).toContain(`Positions of ${order[0]}`);
    screen.press('q');
    await done;
  });
  it('Ctrl-Z gives the terminal back, stops the process, and takes the screen again when continued', async () => {
    const seen: string[] = [];
    const ref: { screen?: FakeScreen } = {};
    const jobs: JobControl = { stop: () => void seen.push(ref.screen!.calls.join()), onContinue: () => () => {} };
    const { screen, done } = await live(undefined, jobs);
    ref.screen = screen;
    const drawn = screen.frames.length;
    screen.press({ name: 'ctrl', char: 'z' });
    expect(seen).toEqual(['enter,suspend']);
    expect(screen.calls).toEqual(['enter', 'suspend', 'resume']);
    expect(screen.frames.length).toBeGreaterThan(drawn);
    screen.press('q');
    await done;
  });
});
