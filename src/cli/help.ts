// The overview printed by `superagent`, `superagent --help` and for a bare group word.
// Built from the registry's static summaries: no command module is loaded.
import { GROUP_TITLES, VISIBLE_ENTRIES, type Entry, type Group } from './registry.js';

function line(entry: Entry, width: number): string {
  const name = entry.path.join(' ') + (entry.aliases?.length ? ` (${entry.aliases.join(', ')})` : '');
  return `  ${name.padEnd(width)}  ${entry.summary}`;
}

export function overview(): string {
  const width = Math.max(...VISIBLE_ENTRIES.map((e) => (e.path.join(' ') + (e.aliases?.length ? ` (${e.aliases.join(', ')})` : '')).length));
  const groups = Object.keys(GROUP_TITLES) as Group[];
  const sections = groups
    .map((group) => {
      const entries = VISIBLE_ENTRIES.filter((e) => e.group === group);
      if (entries.length === 0) return '';
      return `${GROUP_TITLES[group]}:\n${entries.map((e) => line(e, width)).join('\n')}\n`;
    })
    .filter(Boolean);
  return [
    'superagent: run and talk to SuperAgents, autonomous crypto-trading agents.',
    '',
    'Usage: superagent <command> [options]',
    '',
    ...sections,
    'Global options: --json --profile <name> --base-url <url> --api-key <key> -q/--quiet --no-color',
    '                --debug --timeout <seconds> -y/--yes --no-input',
    '',
    "Run 'superagent <command> --help' for a command's options and examples.",
    'With nothing configured, commands use the embedded local service.',
    '',
  ].join('\n');
}

export function groupHelp(word: string, entries: Entry[]): string {
  const width = Math.max(...entries.map((e) => e.path.join(' ').length));
  return [`Commands of '${word}':`, ...entries.map((e) => line(e, width)), '', `Run 'superagent ${word} <command> --help' for details.`, ''].join(
    '\n',
  );
}
