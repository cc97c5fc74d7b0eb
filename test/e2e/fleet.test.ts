// The fleet cycle as a CI job runs it: the built binary, no terminal, CI=true, against
// the embedded service on a data dir of its own: export, plan (exit 9 while changes are pending),
// apply --yes, plan (exit 0), apply again (nothing to do), apply --prune.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SOURCES_ON, runCli } from '../helpers/cli.js';
import { perTest } from '../helpers/service-support.js';

const temp = perTest();
const BOT_TOKEN = '7123456789:AAHk3_x-ZyQw9vLmN0pRsTuVwXyZaBcDeFg';
// eleven runs of the CLI, each starting the embedded service: well over the default 30 s on a loaded machine
const CYCLE = { timeout: 240_000 };

describe('fleet as code in CI', CYCLE, () => {
  it(
    'export → plan → edit → plan exits 9 → apply --yes → ' + 'plan exits 0 → apply makes no change → apply --prune',
    async () => {
      const dataDir = temp.scratch('superagent-fleet-data-');
      const configDir = temp.scratch('superagent-fleet-config-');
      const repo = temp.scratch('superagent-fleet-repo-');
      const outputs: string[] = [];
      const sa = async (args: string[]) => {
        const r = await runCli(args, {
          dataDir,
          configDir,
          // not about money: agents launched with nothing on their paper accounts, so --prune has nothing to refuse
          // the embedded service's own simulated sources read (what a prune checks), each agent unfunded
          env: { CI: 'true', GAMMA_BOT_TOKEN: BOT_TOKEN, SUPERAGENT_PAPER_BALANCE: '0', ...SOURCES_ON },
          timeout: 60_000,
        });
        outputs.push(r.stdout, r.stderr);
        return r;
      };
      const file = path.join(repo, 'superagents.yaml');

      expect((await sa(['launch', '--name', 'alpha', '--model', 'gpt-4o'])).exitCode).toBe(0);
      expect((await sa(['launch', '--name', 'beta'])).exitCode).toBe(0);
      const exported = await sa(['export', '--dir', repo]);
      expect(exported.exitCode, exported.stderr).toBe(0);
      expect(exported.stdout).toBe(
        [file, path.join(repo, 'souls/alpha.md'), path.join(repo, 'souls/beta.md'), ''].join('\n'),
      );
      const clean = await sa(['plan', '-f', file, '--detailed-exit-code']);
      expect([clean.exitCode, clean.stdout]).toEqual([0, `No changes: the service matches ${file} (2 agents).\n`]);

      // the pull request: beta paused, alpha's rules tightened, gamma added with a bot
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/(name: beta[\s\S]*?status: )running/, '$1paused'));
      fs.appendFileSync(
        file,
        '  - name: gamma\n    model: gpt-4o-mini\n    soul: souls/gamma.md\n    bot_token_env: GAMMA_BOT_TOKEN\n',
      );
      fs.writeFileSync(path.join(repo, 'souls/gamma.md'), '# gamma\nWatch SOL.\n');
      fs.appendFileSync(path.join(repo, 'souls/alpha.md'), '- Close every position before the weekend.\n');
      const pending = await sa(['plan', '-f', file, '--detailed-exit-code']);
      expect(pending.exitCode, pending.stderr).toBe(9);
      expect(pending.stdout).toContain('+ gamma: launch\n');
      expect(pending.stdout).toContain('+- Close every position before the weekend.\n');
      expect(pending.stdout).toContain('status: running → paused (pause)\n');
      expect(pending.stdout).toContain('Plan: 1 to launch, 2 to change.\n');

      const refused = await sa(['apply', '-f', file]);
      expect([refused.exitCode, refused.stderr]).toEqual([
        2,
        `Error: --yes required to apply when not running interactively (superagent apply -f ${file} --yes)\n`,
      ]);

      // main: apply
      const applied = await sa(['apply', '-f', file, '--yes']);
      expect(applied.exitCode, applied.stderr).toBe(0);
      expect(applied.stdout).toContain(
        '[1/3] launch gamma: done\n[2/3] soul of alpha: done\n[3/3] pause beta: done\nApplied 3 steps',
      );
      expect((await sa(['plan', '-f', file, '--detailed-exit-code'])).exitCode).toBe(0);
      const again = await sa(['apply', '-f', file, '--yes']);
      expect([again.exitCode, again.stdout]).toEqual([0, `No changes: the service matches ${file} (3 agents).\n`]);

      // beta leaves the file: only --prune destroys it
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/ {2}- name: beta\n( {4}.*\n)*/, ''));
      const pruned = await sa(['apply', '-f', file, '--yes', '--prune']);
      expect(pruned.exitCode, pruned.stderr).toBe(0);
      expect(pruned.stdout).toContain('[1/1] destroy beta: done\n');
      const list = await sa(['list', '--json']);
      expect(
        JSON.parse(list.stdout)
          .agents.map((a: { name: string }) => a.name)
          .sort(),
      ).toEqual(['alpha', 'gamma']);

      // the token went to the service only (test/commands/fleet-apply.test.ts
      // sees it in the launch): no output, no file
      const secret = BOT_TOKEN.split(':')[1]!;
      for (const text of outputs) expect(text).not.toContain(secret);
      for (const name of fs.readdirSync(repo, { recursive: true, encoding: 'utf8' })) {
        const full = path.join(repo, name);
        if (fs.statSync(full).isFile()) expect(fs.readFileSync(full, 'utf8')).not.toContain(secret);
      }
    },
  );
});
