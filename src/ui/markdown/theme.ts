// How rendered Markdown looks: SGR parameters of the 16 basic colours, which every terminal has
// (and which follow its own palette, light or dark). With NO_COLOR none of them is written.
export const SGR = {
  strong: '1',
  em: '3',
  strike: '9',
  code: '36',
  link: '4;94',
  url: '2',
  /** structure: heading marks, bullets' rules, table borders, quote bars, code fences */
  frame: '2',
  h1: '1;4;35',
  h2: '1;35',
  h3: '1',
  tableHeader: '1',
} as const;

export const headingSgr = (level: number): string => (level === 1 ? SGR.h1 : level === 2 ? SGR.h2 : SGR.h3);

/** highlight.js scopes → colours (scopes not named here take their parent's, or none) */
const SCOPES: Record<string, string> = {
  keyword: '35',
  'selector-tag': '35',
  doctag: '35',
  type: '33',
  built_in: '36',
  literal: '33',
  number: '33',
  symbol: '33',
  bullet: '33',
  string: '32',
  regexp: '32',
  'template-tag': '32',
  subst: '0',
  comment: '2;3',
  quote: '2;3',
  meta: '2',
  title: '34',
  section: '1;34',
  attr: '36',
  attribute: '36',
  property: '36',
  variable: '36',
  'template-variable': '36',
  params: '',
  emphasis: '3',
  strong: '1',
  deletion: '31',
  addition: '32',
};

/** The colour of the innermost scope that has one (a literal's, `true` in JSON, wins over the keyword inside it). */
export function scopeSgr(scopes: readonly string[]): string | undefined {
  if (scopes.includes('literal')) return SCOPES.literal;
  for (let i = scopes.length - 1; i >= 0; i--) {
    const sgr = SCOPES[scopes[i]!];
    if (sgr !== undefined) return sgr === '' || sgr === '0' ? undefined : sgr;
  }
  return undefined;
}
