// The README's "Guarding the fleet" recipes: a systemd user unit that finds node wherever nvm, fnm or
// volta put it, a CI job that keeps guard's data dir between runs, and only flags guard has.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { spec } from '../../src/cli/commands/guard.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const section = readme.slice(readme.indexOf('## Guarding the fleet'), readme.indexOf('## Scripting and CI'));
const block = (lang: string) => [...section.matchAll(/```(\w+)\n([\s\S]*?)```/g)].find((m) => m[1] === lang)![2]!;
const kebab = (s: string) => s.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

describe("README's Guarding the fleet", () => {
  it('the systemd user unit runs node by its absolute path, and orders itself after nothing it cannot see', () => {
    const unit = block('ini');
    const exec = /^ExecStart=(\S+) (\S+) guard /m.exec(unit);
    expect(exec?.[1]).toMatch(/^\/.*\/node$/);
    expect(exec?.[2]).toMatch(/^(\/|%h\/).*superagent$/);
    expect(unit).not.toMatch(/network-online\.target/);
  });

  it('the CI job sets the data dir and restores it, saved even when the job fails (a breach fails it)', () => {
    const job = block('yaml');
    const dir = /SUPERAGENT_DATA_DIR: (\S+)/.exec(job)?.[1];
    expect(dir).toBeDefined();
    const restore = job.indexOf('actions/cache/restore@');
    const run = job.indexOf('superagent guard');
    const save = job.indexOf('actions/cache/save@');
    expect(restore).toBeGreaterThan(-1);
    expect([restore < run, run < save]).toEqual([true, true]);
    expect(job.slice(save)).toMatch(/if: always\(\)/);
    expect(job.split(`path: ${dir}`).length - 1).toBe(2);
  });

  it("every guard command in it uses guard's own flags", () => {
    const flags = new Set([...Object.keys(spec.options).map(kebab), 'json', 'verbose']);
    const commands = [...section.matchAll(/superagent guard ([^\n`]*)/g)].map((m) => m[1]!);
    expect(commands.length).toBeGreaterThanOrEqual(3);
    for (const c of commands)
      for (const [, f] of c.matchAll(/--([a-z-]+)/g)) expect([c, flags.has(f!)]).toEqual([c, true]);
  });
});
