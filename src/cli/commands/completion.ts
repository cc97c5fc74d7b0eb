// `superagent completion bash|zsh|fish`: the completion script, generated from the command tree
// (every command's spec), so it always matches the commands. completions/ holds the same scripts.
import { bashScript } from '../completion/bash.js';
import { fishScript } from '../completion/fish.js';
import { buildTree, SHELLS, type Shell, type Tree } from '../completion/tree.js';
import { zshScript } from '../completion/zsh.js';
import type { Context } from '../context.js';
import { UsageError } from '../../core/errors.js';
import type { Input, Spec } from '../spec.js';

export const spec = {
  description:
    'Print the completion script for bash, zsh or fish. It completes commands, options and their values (providers, ' +
    'shells), and agent names and ids through a hidden command that ' +
    'keeps a 30-second local cache, so pressing Tab does ' +
    'not spend the rate limit. The same scripts ship in the package under completions/.',
  args: [{ name: 'shell', description: SHELLS.join(' | '), required: true, complete: 'shell' }],
  examples: [
    'superagent completion bash > ~/.local/share/bash-completion/completions/superagent',
    'superagent completion zsh > "${fpath[1]}/_superagent"',
    'superagent completion fish > ~/.config/fish/completions/superagent.fish',
    'source <(superagent completion bash)',
  ],
} as const satisfies Spec;

export const GENERATORS: Record<Shell, (tree: Tree) => string> = { bash: bashScript, zsh: zshScript, fish: fishScript };

export async function run(input: Input<typeof spec>, ctx: Context): Promise<void> {
  const shell = input.shell;
  if (!(SHELLS as readonly string[]).includes(shell!)) {
    throw new UsageError(`unknown shell '${shell}'`, `choose one of ${SHELLS.join(', ')}`);
  }
  ctx.printer.write(GENERATORS[shell as Shell](await buildTree()));
}
