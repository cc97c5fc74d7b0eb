// Rendered replies at 80 and 120 columns, against files checked in (test/fixtures/markdown): the
// fixture replies look like the assistant's and the agents' answers (a trade setup, a macro screen, a
// squeeze-scan table, code). Layout without colour (NO_COLOR), and two with colour and hyperlinks,
// escapes written out. After a deliberate change of look: UPDATE_GOLDEN=1 npx vitest run <this file>,
// then read the diff of the .txt files.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, fixture, renderWhole, visible } from '../helpers/markdown.js';

const NAMES = ['trade-setup', 'macro-screen', 'squeeze-scan', 'code-block'];

function golden(file: string, actual: string): void {
  const full = path.join(FIXTURES, file);
  if (process.env.UPDATE_GOLDEN) fs.writeFileSync(full, actual);
  expect(fs.existsSync(full), `${file} is missing: run with UPDATE_GOLDEN=1 once, and read it`).toBe(true);
  expect(actual).toBe(fs.readFileSync(full, 'utf8'));
}

describe.each([80, 120])('at %i columns', (width) => {
  it.each(NAMES)('%s, without colour', (name) => {
    const out = renderWhole(fixture(name), width);
    golden(`${name}.${width}.txt`, out);
    // the layout fits: no line wider than the terminal (code lines aside, which the terminal wraps)
    const code = new Set(fixture(name).split('\n'));
    for (const line of out.split('\n')) if (!code.has(line)) expect([...line].length, line).toBeLessThanOrEqual(width);
  });
});

describe('with colour and hyperlinks', () => {
  it.each(['trade-setup', 'code-block'])('%s at 80 columns', (name) => {
    golden(`${name}.80.colour.txt`, visible(renderWhole(fixture(name), 80, { colour: true, hyperlinks: true })));
  });
});
