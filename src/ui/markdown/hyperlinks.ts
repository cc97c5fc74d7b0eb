// Whether the terminal shows OSC 8 hyperlinks, read from the environment the Context was given. The
// table is the one of chalk/supports-hyperlinks; that package is not used because it reads
// process.env and process.argv itself (the Context owns the environment, tests give their own) and
// probes both standard streams when it is imported.
const version = (text = ''): [number, number] => {
  // "4601" (VTE) is 46.1
  if (/^\d{3,4}$/.test(text)) return [Math.floor(Number(text) / 100), Number(text) % 100];
  const [major = 0, minor = 0] = text.split('.').map((n) => parseInt(n, 10) || 0);
  return [major, minor];
};

const atLeast = ([a, b]: [number, number], major: number, minor: number) => a > major || (a === major && b >= minor);

export function hyperlinksSupported(env: NodeJS.ProcessEnv): boolean {
  const force = env.FORCE_HYPERLINK;
  if (force !== undefined) return !(force.length > 0 && parseInt(force, 10) === 0);
  // inside tmux or screen, the outer terminal's variables (VTE_VERSION, WT_SESSION) pass through, but
  // the multiplexer drops OSC 8 (tmux before 3.4, or without its hyperlinks feature): the URL would vanish
  if (env.TMUX || env.STY || /^(tmux|screen)/.test(env.TERM ?? '')) return false;
  if ('WT_SESSION' in env) return true;
  if (env.CI || env.TEAMCITY_VERSION) return false;
  const v = version(env.TERM_PROGRAM_VERSION);
  switch (env.TERM_PROGRAM) {
    case 'iTerm.app':
      return atLeast(v, 3, 1);
    case 'WezTerm':
      return v[0] >= 20200620 || /^0-unstable-\d{4}/.test(env.TERM_PROGRAM_VERSION ?? '');
    case 'vscode':
      return Boolean(env.CURSOR_TRACE_ID) || atLeast(v, 1, 72);
    case 'ghostty':
    case 'zed':
    case 'WarpTerminal':
      return true;
  }
  if (env.VTE_VERSION) return env.VTE_VERSION !== '0.50.0' && atLeast(version(env.VTE_VERSION), 0, 50);
  return env.TERM === 'alacritty' || env.TERM === 'xterm-kitty';
}
