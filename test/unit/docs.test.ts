// docs/cli.md is what the command tree gives (`npm run docs` writes it): a changed spec, flag, exit
// code or environment variable that is not written there fails here, so the page cannot drift.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ENVIRONMENT } from '../../src/cli/docs/environment.js';
import { cliMarkdown } from '../../src/cli/docs/markdown.js';
import { EXIT } from '../../src/cli/exit-codes.js';
import { ENTRIES } from '../../src/cli/registry.js';

const entryName = (e: { path: readonly string[] }) => e.path.join(' ');
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const generated = await cliMarkdown();

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const full = path.join(dir, d.name);
    return d.isDirectory() ? sourceFiles(full) : d.name.endsWith('.ts') ? [full] : [];
  });
}

describe('docs/cli.md', () => {
  it('is what the command tree gives (run `npm run docs` after changing a command)', () => {
    const committed = fs.readFileSync(path.join(ROOT, 'docs/cli.md'), 'utf8');
    // compared line by line first: a failure names the first line that differs
    const lines = committed.split('\n');
    const first = generated.split('\n').findIndex((line, i) => line !== lines[i]);
    expect(first, `docs/cli.md differs from line ${first + 1}: run npm run docs`).toBe(-1);
    expect(committed).toBe(generated);
  });

  it('has a section for every command a person runs, none for the hidden ones', () => {
    for (const e of ENTRIES) {
      const heading = `\n### superagent ${entryName(e)}\n`;
      if (e.hidden) expect(generated, entryName(e)).not.toContain(heading);
      else expect(generated, entryName(e)).toContain(heading);
    }
  });

  it('lists every exit code of exit-codes.ts', () => {
    for (const code of Object.values(EXIT)) expect(generated).toMatch(new RegExp(`^\\| ${code} \\| \\S`, 'm'));
  });

  it('lists every SUPERAGENT_ environment variable the source reads', () => {
    const texts = sourceFiles(path.join(ROOT, 'src')).map((f) => fs.readFileSync(f, 'utf8'));
    const read = new Set(texts.flatMap((text) => text.match(/SUPERAGENT_[A-Z_]+/g) ?? []));
    const listed = ENVIRONMENT.flatMap((v) => v.name.split(', '));
    expect(read.size).toBeGreaterThan(5);
    for (const name of read) expect(listed, name).toContain(name);
    for (const v of ENVIRONMENT) expect(generated).toContain(`| \`${v.name}\` |`);
  });
});
