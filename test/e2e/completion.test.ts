// Shell completion, for real: the committed scripts are what `superagent completion` prints, each one
// loaded into its own shell completes commands, options, values and agent names, and the hidden
// command behind agent names answers from a short-lived cache (Tab must not spend the rate limit,
// nor hang on a slow service).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROVIDERS } from '../../src/contract.js';
import { ENTRIES } from '../../src/cli/registry.js';
import { SKILLS } from '../../src/server/runtime/skills.js';
import { ENDPOINT_SETTINGS } from '../../src/cli/commands/shared/settings.js';
import { BIN, cleanEnv, runCli, type RunOptions } from '../helpers/cli.js';
import { PROBE_RATE_LIMIT, requestProbe } from '../helpers/request-count.js';
import { launchAgent, startTestService, tempDir, type TestService } from '../helpers/service.js';
import { perTest, stopService } from '../helpers/service-support.js';
import { optionSyntax } from '../../src/cli/spec.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SCRIPTS = {
  bash: 'completions/superagent.bash',
  zsh: 'completions/_superagent',
  fish: 'completions/superagent.fish',
} as const;
const ZSH_HARNESS = path.join(ROOT, 'test/helpers/zsh-complete.zsh');

function installed(shell: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0;
}
const HAS_ZSH = installed('zsh');
const HAS_FISH = installed('fish');
for (const [shell, has] of [
  ['zsh', HAS_ZSH],
  ['fish', HAS_FISH],
] as const) {
  if (!has)
    console.warn(
      `completion.test: ${shell} is not installed, so its completion tests ` +
        `are skipped (apt-get install ${shell}; .ci/run installs it)`,
    );
}

// the temp dirs a test makes (caches, each run's config and data dirs) are removed after it
const temp = perTest();
const ownDirs = () => ({ configDir: temp.scratch('superagent-config-'), dataDir: temp.scratch('superagent-data-') });
const run = (args: string[], opts: RunOptions = {}) => runCli(args, { ...ownDirs(), ...opts });

/** A bin dir whose `superagent` runs the built CLI, as the installed package's would. */
function binDir(): string {
  const dir = tempDir('superagent-bin-');
  fs.writeFileSync(path.join(dir, 'superagent'), `#!/bin/sh\nexec '${process.execPath}' '${BIN}' "$@"\n`, {
    mode: 0o755,
  });
  return dir;
}

/** One cache dir (XDG_CACHE_HOME) per test, so no test sees another's cache or the developer's. */
function cacheHome(): string {
  return temp.scratch('superagent-cache-');
}

function cacheFiles(home: string): string[] {
  const dir = path.join(home, 'superagent');
  return fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((f) => f.endsWith('.json'))
        .map((f) => path.join(dir, f))
    : [];
}

/** Makes every cached answer look older than its 30 s life, as if the user came back later. */
function ageCache(home: string): void {
  for (const file of cacheFiles(home)) {
    const data = JSON.parse(fs.readFileSync(file, 'utf8'));
    data.agents.checkedAt = 0;
    for (const slot of Object.values(data.skills ?? {}) as Array<{ checkedAt: number }>) slot.checkedAt = 0;
    fs.writeFileSync(file, JSON.stringify(data));
  }
}

// a new agent's skills, in the service's order: enable offers those off, disable those on
const ON_SKILLS = SKILLS.filter((s) => s.defaultEnabled).map((s) => s.name);
const OFF_SKILLS = SKILLS.filter((s) => !s.defaultEnabled).map((s) => s.name);
const lines = (text: string) => text.split('\n').filter(Boolean);
const values = (text: string) => lines(text).map((l) => l.split('\t')[0]);

let service: TestService;
let demoId: string;
let bin: string;
beforeAll(async () => {
  service = await startTestService({ rateLimit: PROBE_RATE_LIMIT });
  demoId = (await launchAgent(service, { name: 'demo' })).agent_id;
  await launchAgent(service, { name: 'scout two' });
  bin = binDir();
});
afterAll(async () => {
  await stopService(service);
  if (bin) fs.rmSync(bin, { recursive: true, force: true });
});

/** A refresh budget a loaded machine cannot pass (the default is 1 s): for tests not about the budget. */
const ROOMY = { SUPERAGENT_COMPLETION_BUDGET_MS: '10000' };
/** a cache of its own and the roomy budget */
const roomyEnv = () => ({ XDG_CACHE_HOME: cacheHome(), ...ROOMY });

/**
 * The environment of a shell whose user has `superagent` installed and a service configured. The
 * refresh budget is raised: these tests are about the scripts, and a loaded CI machine can pass 1 s.
 */
function shellEnv(
  cache: string,
  target: { url: string; key: string } | undefined = service,
): Record<string, string | undefined> {
  return {
    ...cleanEnv({ target, ...ownDirs() }),
    PATH: `${bin}${path.delimiter}${process.env.PATH}`,
    XDG_CACHE_HOME: cache,
    ...ROOMY,
  };
}

describe('completion <shell>', () => {
  for (const [shell, file] of Object.entries(SCRIPTS)) {
    it(`prints the committed ${file} (run 'npm run completions' after changing a command)`, async () => {
      const r = await run(['completion', shell]);
      expect(r.exitCode).toBe(0);
      expect(r.stderr).toBe('');
      expect(r.stdout, `${file} differs from 'superagent completion ${shell}': run 'npm run completions'`).toBe(
        fs.readFileSync(path.join(ROOT, file), 'utf8'),
      );
    });
  }

  it('covers every command and option of the tree', async () => {
    const specs = await Promise.all(ENTRIES.map(async (e) => ({ entry: e, spec: (await e.load()).spec })));
    for (const file of Object.values(SCRIPTS)) {
      const script = fs.readFileSync(path.join(ROOT, file), 'utf8');
      for (const { entry, spec } of specs) {
        if (entry.hidden) continue; // offered nowhere: see the shells' own tests
        for (const word of entry.path) expect(script, `${file}: ${entry.path.join(' ')}`).toContain(word);
        for (const [key, o] of Object.entries(spec.options ?? {})) {
          if (o.hidden) continue;
          const long = /--[\w-]+/.exec(optionSyntax(key, o))![0];
          expect(script, `${file}: ${entry.path.join(' ')} ${long}`).toContain(
            file.endsWith('.fish') ? `-l ${long.slice(2)}` : long,
          );
        }
      }
    }
  });

  it('refuses an unknown shell with exit 2 and prints no script', async () => {
    const r = await run(['completion', 'powershell']);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain("unknown shell 'powershell'");
  });
});

describe('the hidden command behind agent names', () => {
  it(
    'prints names (an id for an ambiguous one), one ' + '"value<TAB>description" a line, and stays out of help',
    async () => {
      const r = await run(['__complete', 'agents'], { target: service, env: roomyEnv() });
      expect(r.exitCode).toBe(0);
      expect(r.stderr).toBe('');
      expect(lines(r.stdout)).toContain(`demo\trunning ${demoId.slice(0, 8)}`);
      expect(values(r.stdout)).not.toContain(demoId);
      expect(values(r.stdout)).toContain('scout two');
      expect((await run([])).stdout).not.toContain('__complete');
    },
  );

  it('costs one request for two completions in a row, and answers from its cache after that', async () => {
    const env = roomyEnv();
    const probe = await requestProbe(service);
    const first = await run(['__complete', 'agents'], { target: service, env });
    const second = await run(['__complete', 'agents'], { target: service, env });
    expect((await probe.since()).requests).toBe(1);
    expect(second.stdout).toBe(first.stdout);
    expect(values(second.stdout)).toContain('demo');

    // skills: the agent is found in the cached list, so one request for its skills, then none
    const skills = await run(['__complete', 'skills', 'demo'], { target: service, env });
    await run(['__complete', 'skills', 'demo'], { target: service, env });
    expect((await probe.since()).requests).toBe(1);
    expect(values(skills.stdout)).toEqual(expect.arrayContaining(['hyperliquid', 'polymarket', 'evm-wallet']));

    // stale: one more request refreshes it
    ageCache(env.XDG_CACHE_HOME);
    await run(['__complete', 'agents'], { target: service, env });
    expect((await probe.since()).requests).toBe(1);
  });

  it('keeps one cache per service and key: another key sees its own agents', async () => {
    const env = roomyEnv();
    await run(['__complete', 'agents'], { target: service, env });
    const other = await startTestService();
    try {
      await launchAgent(other, { name: 'elsewhere' });
      const r = await run(['__complete', 'agents'], { target: other, env });
      expect(values(r.stdout)).toContain('elsewhere');
      expect(values(r.stdout)).not.toContain('demo');
      expect(cacheFiles(env.XDG_CACHE_HOME)).toHaveLength(2);
      for (const file of cacheFiles(env.XDG_CACHE_HOME)) {
        expect(path.basename(file)).toMatch(/^completion-[0-9a-f]{24}\.json$/); // neither URL nor key in the name
        expect(fs.readFileSync(file, 'utf8')).not.toContain(other.key);
        expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      }
    } finally {
      await stopService(other);
    }
  });

  it(
    'never blocks on a slow service, nor fails on a broken ' + 'one: it prints what the cache has and exits 0',
    async () => {
      const fake = await fakeService([
        { agent_id: '0b7c2d4e-8f1a-4c3b-9d2e-5a6f7b8c9d0e', name: 'slowpoke', status: 'paused' },
      ]);
      const env = { XDG_CACHE_HOME: cacheHome() };
      const target = { url: fake.url, key: 'sa_sk_' + 'x'.repeat(24) };
      try {
        const fresh = await run(['__complete', 'agents'], { target, env });
        expect(values(fresh.stdout)).toEqual(['slowpoke']);
        expect(fake.requests).toBe(1);

        ageCache(env.XDG_CACHE_HOME);
        fake.delayMs = 10_000;
        const started = Date.now();
        const slow = await run(['__complete', 'agents'], { target, env });
        const took = Date.now() - started;
        expect(slow.exitCode).toBe(0);
        expect(slow.stderr).toBe('');
        expect(slow.stdout).toBe(fresh.stdout); // the stale cache, not nothing
        expect(fake.requests).toBe(2);
        expect(took).toBeLessThan(2_500); // node's start-up plus the 1 s budget

        // the failed refresh counts as an attempt: the next Tab does not ask again
        await run(['__complete', 'agents'], { target, env });
        expect(fake.requests).toBe(2);

        ageCache(env.XDG_CACHE_HOME);
        fake.delayMs = 0;
        fake.status = 500;
        const broken = await run(['__complete', 'agents'], { target, env });
        expect(broken).toMatchObject({ exitCode: 0, stderr: '', stdout: fresh.stdout });
        expect(fake.requests).toBe(3); // no retries behind a Tab

        // nothing cached and nothing answering: nothing printed, still exit 0
        const empty = await run(['__complete', 'agents'], { target, env: { XDG_CACHE_HOME: cacheHome() } });
        expect(empty).toMatchObject({ exitCode: 0, stderr: '', stdout: '' });
      } finally {
        await fake.close();
      }
    },
  );

  it('prints nothing and exits 0 for an unknown profile or kind', async () => {
    const env = roomyEnv();
    expect(await run(['--profile', 'nope', '__complete', 'agents'], { target: service, env })).toMatchObject({
      exitCode: 0,
      stdout: '',
      stderr: '',
    });
    expect(await run(['__complete', 'wallets'], { target: service, env })).toMatchObject({
      exitCode: 0,
      stdout: '',
      stderr: '',
    });
  });

  it('with nothing configured, starts the embedded service at most once per 30 s', async () => {
    const dataDir = temp.scratch('superagent-data-');
    // the roomy budget: a cold start of the embedded service on a loaded machine can take over the real 1 s
    const env = roomyEnv();
    expect((await run(['launch', '--name', 'local-one'], { dataDir, env })).exitCode).toBe(0);
    const first = await run(['__complete', 'agents'], { dataDir, env });
    expect(values(first.stdout)).toContain('local-one');
    const [file] = cacheFiles(env.XDG_CACHE_HOME);
    const checkedAt = JSON.parse(fs.readFileSync(file!, 'utf8')).agents.checkedAt;
    const second = await run(['__complete', 'agents'], { dataDir, env });
    expect(second.stdout).toBe(first.stdout);
    // not refreshed: the second Tab neither started the service nor asked it anything
    expect(JSON.parse(fs.readFileSync(file!, 'utf8')).agents.checkedAt).toBe(checkedAt);
  });
});

/** bash: the script sourced, then its completion function called as bash calls it on Tab. */
async function bashComplete(line: string, env: Record<string, string | undefined>): Promise<string[]> {
  const harness = `
source "$1"
spec=$(complete -p superagent) || exit 3
fn=\${spec##*-F }; fn=\${fn%% *}
COMP_LINE=$2; COMP_POINT=\${#COMP_LINE}
read -r -a COMP_WORDS <<< "$COMP_LINE"
[[ $COMP_LINE == *' ' ]] && COMP_WORDS+=('')
COMP_CWORD=$(( \${#COMP_WORDS[@]} - 1 ))
COMPREPLY=()
"$fn" superagent "\${COMP_WORDS[COMP_CWORD]}" "\${COMP_WORDS[COMP_CWORD-1]}"
printf '%s\\n' "\${COMPREPLY[@]}"
`;
  const r = await execa('bash', ['--norc', '--noprofile', '-c', harness, 'bash', path.join(ROOT, SCRIPTS.bash), line], {
    env,
    extendEnv: false,
    reject: false,
  });
  expect(r.stderr).toBe('');
  expect(r.exitCode).toBe(0);
  return lines(String(r.stdout));
}

describe('bash', () => {
  it("completes 'superagent pa' to pause", async () => {
    expect(await bashComplete('superagent pa', shellEnv(cacheHome()))).toEqual(['pause']);
  });

  it('completes agent names for <agent>, no ids beside them', async () => {
    const env = shellEnv(cacheHome());
    const all = await bashComplete('superagent get ', env);
    expect([...all].sort()).toEqual(['demo', 'scout\\ two']);
    expect(await bashComplete('superagent get de', env)).toEqual(['demo']);
    expect(await bashComplete(`superagent pause demo ${demoId.slice(0, 6)}`, env)).toEqual([]);
  });

  it('completes subcommands, options and their values', async () => {
    const env = shellEnv(cacheHome());
    expect(await bashComplete('superagent soul ', env)).toEqual(['show', 'edit', 'set']);
    expect(await bashComplete('superagent skills ', env)).toEqual(
      expect.arrayContaining(['enable', 'disable', 'demo']),
    );
    expect(await bashComplete('superagent skills enable demo poly', env)).toEqual([
      'polymarket',
      'polymarket-deep-research',
    ]);
    // enable offers the skills that are off, disable those that are on
    expect(await bashComplete('superagent skills enable demo ', env)).toEqual(OFF_SKILLS);
    expect(await bashComplete('superagent skills disable demo ', env)).toEqual(ON_SKILLS);
    expect(await bashComplete('superagent config set ', env)).toEqual([
      'base_url',
      'output',
      'model',
      'provider',
      'render',
      ...ENDPOINT_SETTINGS,
      'active_profile',
    ]);
    expect(await bashComplete('superagent launch --provider ', env)).toEqual([...PROVIDERS]);
    expect(await bashComplete('superagent --json model demo gpt-4o --provider o', env)).toEqual([
      'openai',
      'openrouter',
    ]);
    expect(await bashComplete('superagent completion ', env)).toEqual(['bash', 'zsh', 'fish']);
    expect(await bashComplete('superagent launch --so', env)).toEqual(['--soul-file']);
    expect(await bashComplete('superagent ls --js', env)).toEqual(['--json']);
    expect(await bashComplete('superagent chat demo --verb', env)).toEqual(['--verbose']);
    expect(await bashComplete('superagent health demo --', env)).toContain('--watch');
    expect(await bashComplete('superagent health demo --', env)).not.toContain('--count'); // hidden
    expect(await bashComplete('superagent frobnicate ', env)).toEqual([]);
    expect(await bashComplete('superagent _', env)).toEqual([]); // the hidden command is not offered
  });

  it(
    'a name from the service is inserted quoted, never as shell ' +
      'syntax; one with a control character is not offered',
    async () => {
      const hostile = await fakeService([
        { agent_id: '11111111-2222-4333-8444-555555555555', name: 'fund;touch${IFS}/tmp/PWNED', status: 'running' },
        { agent_id: '66666666-2222-4333-8444-555555555555', name: 'fun\u001b]0;title\u0007', status: 'running' },
      ]);
      try {
        const env = shellEnv(cacheHome(), { url: hostile.url, key: service.key });
        expect(await bashComplete('superagent chat fu', env)).toEqual(['fund\\;touch\\$\\{IFS\\}/tmp/PWNED']);
      } finally {
        await hostile.close();
      }
    },
  );

  it('asks the service the line names (--base-url), not the configured one', async () => {
    const env = { ...shellEnv(cacheHome(), undefined), SUPERAGENT_API_KEY: service.key };
    expect(await bashComplete(`superagent --base-url ${service.url} get de`, env)).toEqual(['demo']);
  });
});

describe.skipIf(!HAS_ZSH)(`zsh${HAS_ZSH ? '' : ' (skipped: zsh is not installed)'}`, () => {
  /** Types each line into a real interactive zsh (zpty) and presses Tab; what was offered and what the line became. */
  async function zshComplete(lineList: string[], env: Record<string, string | undefined>) {
    const r = await execa('zsh', ['-f', ZSH_HARNESS, path.join(ROOT, SCRIPTS.zsh), ...lineList], {
      env: { ...env, TERM: 'xterm' },
      extendEnv: false,
      reject: false,
      timeout: 30_000,
    });
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    const results: Array<{ matches: string[]; buffer: string }> = [];
    for (const l of String(r.stdout).split('\n')) {
      if (l.startsWith('LINE ')) results.push({ matches: [], buffer: '' });
      else if (l.startsWith('MATCH ')) results.at(-1)!.matches.push(l.slice(6));
      else if (l.startsWith('BUFFER ')) results.at(-1)!.buffer = l.slice(7);
    }
    return results;
  }

  it("completes 'superagent pa' to pause, and agent names for <agent>", async () => {
    const [pa, get, de, soul, provider] = await zshComplete(
      ['superagent pa', 'superagent get ', 'superagent get de', 'superagent soul ', 'superagent launch --provider an'],
      shellEnv(cacheHome()),
    );
    expect(pa).toEqual({ matches: ['pause'], buffer: 'superagent pause ' });
    expect([...get!.matches].sort()).toEqual(['demo', 'scout two']);
    expect(de).toEqual({ matches: ['demo'], buffer: 'superagent get demo ' });
    expect(soul!.matches).toEqual(['show', 'edit', 'set']);
    expect(provider!.buffer).toBe('superagent launch --provider anthropic ');
  });

  it('skills enable offers the skills that are off, disable those that are on', async () => {
    const [enable, disable] = await zshComplete(
      ['superagent skills enable demo ', 'superagent skills disable demo '],
      shellEnv(cacheHome()),
    );
    expect([...enable!.matches].sort()).toEqual([...OFF_SKILLS].sort());
    expect([...disable!.matches].sort()).toEqual([...ON_SKILLS].sort());
  });
});

describe.skipIf(!HAS_FISH)(`fish${HAS_FISH ? '' : ' (skipped: fish is not installed)'}`, () => {
  async function fishComplete(line: string, env: Record<string, string | undefined>): Promise<string[]> {
    // fish makes its config and data dirs even with --no-config: in a home of the test's own, not the user's
    const home = temp.scratch('fish-home-');
    const own = {
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, '.config'),
      XDG_DATA_HOME: path.join(home, '.local/share'),
    };
    const r = await execa(
      'fish',
      ['--no-config', '-c', 'source $argv[1]; complete -C $argv[2]', path.join(ROOT, SCRIPTS.fish), line],
      { env: { ...env, ...own }, extendEnv: false, reject: false },
    );
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    return values(String(r.stdout)) as string[];
  }

  it("completes 'superagent pa' to pause, and agent names for <agent>", async () => {
    const env = shellEnv(cacheHome());
    expect(await fishComplete('superagent pa', env)).toEqual(['pause']);
    expect([...(await fishComplete('superagent get ', env))].sort()).toEqual(['demo', 'scout two']);
    expect(await fishComplete('superagent get de', env)).toEqual(['demo']);
  });

  it('completes subcommands, options and their values', async () => {
    const env = shellEnv(cacheHome());
    expect(await fishComplete('superagent soul ', env)).toEqual(['edit', 'set', 'show']);
    expect(await fishComplete('superagent skills enable demo poly', env)).toEqual([
      'polymarket',
      'polymarket-deep-research',
    ]);
    expect(await fishComplete('superagent skills enable demo ', env)).toEqual([...OFF_SKILLS].sort());
    expect(await fishComplete('superagent skills disable demo ', env)).toEqual([...ON_SKILLS].sort());
    expect(await fishComplete('superagent launch --provider ', env)).toEqual([...PROVIDERS].sort());
    expect(await fishComplete('superagent completion ', env)).toEqual(['bash', 'fish', 'zsh']);
    expect(await fishComplete('superagent launch --so', env)).toEqual(['--soul-file']);
    expect(await fishComplete('superagent _', env)).toEqual([]);
  });
});

/** A stand-in service whose speed and answer the test controls, counting the requests it gets. */
async function fakeService(agents: unknown[]) {
  const state = { requests: 0, delayMs: 0, status: 200 };
  const server = http.createServer((_req, res) => {
    state.requests++;
    setTimeout(() => {
      res.writeHead(state.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(state.status === 200 ? { agents } : { error: { code: 'internal', message: 'boom' } }));
    }, state.delayMs).unref();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(state, {
    url,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  });
}
