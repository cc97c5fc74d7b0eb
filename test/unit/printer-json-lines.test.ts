// JSON lines (health --watch --json) on a terminal are the JSON a parser gets, with what a terminal
// could obey (DEL, C1, bidirectional controls) as \u escapes, not made visible as ^[ or <U+202E>.
import { describe, expect, it } from 'vitest';
import { Printer } from '../../src/ui/printer.js';
import { Capture } from '../helpers/context.js';

const answer = { agent_id: 'a', note: 'x\u202ey\u009b31mz\u007f' };

describe('printJsonLine', () => {
  it.each([true, false])('a terminal (%s): one compact line, the same JSON once parsed', (tty) => {
    const out = new Capture(tty);
    const err = new Capture(tty);
    const p = new Printer(out, err, { json: true, quiet: false, color: false, env: {} });
    p.printJsonLine(answer);
    p.printJsonLine({ error: { message: 'no', exit_code: 4 } }, 'stderr');
    expect(out.text.split('\n')).toHaveLength(2);
    expect(JSON.parse(out.text)).toEqual(answer);
    expect(JSON.parse(err.text)).toEqual({ error: { message: 'no', exit_code: 4 } });
    if (tty) expect(out.text).toBe('{"agent_id":"a","note":"x\\u202ey\\u009b31mz\\u007f"}\n');
    else expect(out.text).toBe(`${JSON.stringify(answer)}\n`);
  });
});
