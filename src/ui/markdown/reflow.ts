// What a terminal re-wraps when it is narrowed, read from its environment: the streaming tail
// (stream.ts) counts the rows to erase by it after a resize. Light: the CLI bundle reads it.

/** every row (tmux, VTE, iTerm2, kitty), the rows above the cursor's only (xterm.js), or none (xterm) */
export type Reflow = 'all' | 'ended' | 'none';

/** How the terminal in `env` re-wraps its rows when narrowed (TailLayout.reflow). */
export function reflowOf(env: NodeJS.ProcessEnv): Reflow {
  const term = env.TERM ?? '';
  if (env.TMUX || term.startsWith('tmux')) return 'all'; // tmux re-wraps its panes itself, whatever is outside
  if (env.TERM_PROGRAM === 'vscode' || env.TERM_PROGRAM === 'Hyper') return 'ended';
  if (env.XTERM_VERSION || term.startsWith('rxvt') || term === 'st' || term.startsWith('st-') || term === 'linux')
    return 'none';
  return 'all';
}
