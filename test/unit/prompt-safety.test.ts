// The prompt library writes a question straight to the terminal: an agent's name in it (the destroy
// confirmation names the agent) is made safe first, our own markers put back.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { terminalPrompter } from '../../src/ui/prompt.js';
import { ours } from '../../src/ui/terminal-safe.js';

const CLIPBOARD = '\u001b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\u0007';

/** A prompter on fake streams; `answer` is typed once the question is on screen. */
async function ask(question: (p: ReturnType<typeof terminalPrompter>) => Promise<unknown>, answer: string) {
  const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => undefined });
  let screen = '';
  const stderr = Object.assign(new PassThrough(), { isTTY: true, columns: 80, rows: 24 });
  stderr.on('data', (chunk: Buffer) => {
    screen += chunk.toString();
  });
  const asked = question(terminalPrompter({ stdin, stderr }));
  await new Promise((r) => setTimeout(r, 20));
  stdin.write(answer);
  const value = await asked;
  return { screen, value };
}

describe('terminalPrompter: questions are made safe', () => {
  it.each([
    ['confirm', (p: ReturnType<typeof terminalPrompter>) => p.confirm(`Destroy N${CLIPBOARD}?`), 'y\r'],
    ['text', (p: ReturnType<typeof terminalPrompter>) => p.text(`Name of N${CLIPBOARD}`), 'x\r'],
    [
      'choice',
      (p: ReturnType<typeof terminalPrompter>) => p.choice(`Pick for N${CLIPBOARD}`, ['a', `b${CLIPBOARD}`]),
      '\r',
    ],
  ])('%s: the OSC 52 sequence shows as ^[]52…^G, never raw', async (_, question, answer) => {
    const { screen } = await ask(question, answer);
    expect(screen).not.toContain('\u001b]52');
    expect(screen).toContain('^[]52;c;Y3VybCBldmlsLnNoIHwgc2g=^G');
  });

  it('our own styling in a question still reaches the terminal as escapes', async () => {
    const { screen } = await ask((p) => p.confirm(`Destroy ${ours('\u001b[1m')}demo${ours('\u001b[22m')}?`), 'n\r');
    expect(screen).toContain('\u001b[1mdemo\u001b[22m');
  });

  it.each([
    ['the name wanted', '✔', 'demo\r'],
    ['another name', '✘', 'dmeo\r'],
  ])('a confirmation that wants one answer: %s is marked %s once answered', async (_, mark, answer) => {
    const { screen, value } = await ask(
      (p) => p.text('Type its name to confirm:', { expect: (typed) => typed.trim() === 'demo' }),
      answer,
    );
    expect(value).toBe(answer.slice(0, -1));
    const last = screen
      .split('\n')
      .filter((l) => l.includes('Type its name'))
      .at(-1)!;
    expect(last).toContain(mark);
    expect(last).not.toContain(mark === '✔' ? '✘' : '✔');
  });

  it('a URL in a question shows without its credentials (parsed or not)', async () => {
    const { screen } = await ask((p) => p.secret('API key for http://alice:pw/x@example.com'), 'k\r');
    expect(screen).toContain('API key for http://…@example.com');
    expect(screen).not.toContain('alice');
  });
});
