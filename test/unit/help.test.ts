// Every command explains itself: a one-line summary (the same in the registry, which the overview
// shows without loading commands, and in the spec, which --help shows) and at least one example.
import { describe, expect, it } from 'vitest';
import { overview } from '../../src/cli/help.js';
import { parseCommand } from '../../src/cli/program.js';
import { ENTRIES, GROUP_TITLES, VISIBLE_ENTRIES } from '../../src/cli/registry.js';
import { COMMAND_MODULES, loadCommand } from '../../src/cli/load-command.js';

const specs = await Promise.all(ENTRIES.map(async (entry) => ({ entry, spec: (await loadCommand(entry)).spec })));

/** What `superagent <command> --help` prints, through the same commander tree main.ts builds. */
async function helpOf(words: string[]): Promise<string> {
  let text = '';
  const out = { write: (s: string) => ((text += s), true) };
  const spec = specs.find((s) => s.entry.path.join(' ') === words.join(' '))!.spec;
  const parsed = await parseCommand(spec, [...words, '--help'], {}, out, out);
  expect(parsed).toBeNull(); // help printed, nothing run
  return text;
}

describe('every command has a summary and an example', () => {
  for (const { entry, spec } of specs) {
    const name = entry.path.join(' ');
    it(name, async () => {
      expect(spec.name).toBe(name);
      expect(spec.summary.trim()).not.toBe('');
      expect(spec.summary).not.toMatch(/\n/);
      expect(spec.summary).not.toMatch(/placeholder/i);
      expect(spec.summary, 'the registry summary (overview) and the spec summary (--help) differ').toBe(entry.summary);
      expect(spec.examples.length).toBeGreaterThanOrEqual(1);
      for (const example of spec.examples) expect(example, 'an example runs superagent').toMatch(/(^|[\s(|])superagent /);

      const help = await helpOf(entry.path);
      expect(help).toContain(`Usage: superagent ${name}`);
      expect(help).toContain((spec.description ?? spec.summary).slice(0, 40));
      expect(help).toContain(`Examples:\n  $ ${spec.examples[0]}`);
    });
  }
});

describe('the overview (superagent with no arguments)', () => {
  const text = overview();

  it('groups the commands by task', () => {
    const titles = Object.values(GROUP_TITLES).map((t) => `${t}:`);
    expect(titles).toEqual(['Agents:', 'Chat:', 'Configuration:', 'Service:']);
    const positions = titles.map((t) => text.indexOf(`\n${t}\n`));
    expect(positions.every((p) => p > 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it('lists every visible command once, with its summary, under its group', () => {
    // the overview's sections: "Agents:" … up to the next blank line
    const sections = new Map(
      Object.entries(GROUP_TITLES).map(([group, title]) => {
        const start = text.indexOf(`\n${title}:\n`);
        return [group, text.slice(start, text.indexOf('\n\n', start + 1))];
      }),
    );
    for (const entry of VISIBLE_ENTRIES) {
      const name = entry.path.join(' ');
      const lines = text.split('\n').filter((l) => new RegExp(`^  ${name}( \\(|  )`).test(l));
      expect(lines, name).toHaveLength(1);
      expect(lines[0]!.endsWith(`  ${entry.summary}`), lines[0]).toBe(true);
      expect(sections.get(entry.group), `${name} is under ${GROUP_TITLES[entry.group]}`).toContain(lines[0]);
    }
  });

  it('keeps hidden commands out', () => {
    const hidden = ENTRIES.filter((e) => e.hidden);
    expect(hidden.map((e) => e.path.join(' '))).toEqual(['__complete']);
    for (const e of hidden) expect(text).not.toContain(e.path[0]);
  });

  it('is short: one screen', () => {
    expect(text.split('\n').length).toBeLessThanOrEqual(60);
  });
});

describe('the registry and the command modules', () => {
  it('every registered command has a module, and every module a registry entry', () => {
    expect([...COMMAND_MODULES].sort()).toEqual(ENTRIES.map((e) => e.path.join(' ')).sort());
  });
});
