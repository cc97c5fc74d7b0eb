// Keys, where only a separate process shows it (the rest is test/commands: hosted-wire, secrets,
// login, whoami): the built binary with a hosted key goes to the hosted service and never starts the
// embedded one, whose data dir stays empty; and `server`, which runs in the foreground until a
// signal, shows a key given with --key masked.
import fs from 'node:fs';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BIN, cleanEnv, runCli, stdoutShows } from '../helpers/cli.js';
import { HOSTED_AGENT, startHostedMock } from '../helpers/hosted-mock.js';
import { perTest } from '../helpers/service-support.js';

const HOSTED_KEY = 'gb_sk_live_4f8a2b9c1d3e5f7a9b0c';
const KEY = 'sa_sk_' + 'Q7sEcReTkEy0123456789abcdefGHIJK';
const ID = HOSTED_AGENT.agent_id;

const temp = perTest();

describe('a hosted key, as a process', () => {
  it(
    'SUPERAGENT_API_KEY=gb_sk_… superagent pause --all goes to ' +
      'the hosted service and writes nothing to the data dir',
    async () => {
      const mock = await startHostedMock(({ method, path }) => {
        if (method === 'GET' && path === '/v1/superagents') return { json: { agents: [HOSTED_AGENT] } };
        if (method === 'POST' && path === `/v1/superagents/${ID}/pause`)
          return { json: { agent_id: ID, status: 'paused' } };
        return undefined;
      });
      temp.closeAfter(mock);
      const dataDir = temp.scratch('superagent-hosted-data-');
      const r = await runCli(['pause', '--all'], {
        configDir: temp.scratch('superagent-hosted-config-'),
        dataDir,
        env: { SUPERAGENT_API_KEY: HOSTED_KEY, SUPERAGENT_HOSTED_URL: mock.url },
      });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(mock.requests.map((q) => `${q.method} ${q.path}`)).toEqual([
        'GET /v1/superagents',
        `POST /v1/superagents/${ID}/pause`,
      ]);
      expect(mock.requests.every((q) => q.authorization === `Bearer ${HOSTED_KEY}`)).toBe(true);
      // the embedded service was never started: it would have made its key and store there
      expect(fs.readdirSync(dataDir)).toEqual([]);
    },
  );
});

describe('server', () => {
  it('given the key with --key, shows it masked, --debug included', async () => {
    const child = execa(
      process.execPath,
      [BIN, 'server', '--port', '0', '--data-dir', temp.scratch(), '--key', KEY, '--debug'],
      {
        env: cleanEnv({ configDir: temp.scratch('superagent-config-'), dataDir: temp.scratch('superagent-data-') }),
        extendEnv: false,
        reject: false,
      },
    );
    // the banner's key line, or the process ending without one (then the assertions below say why)
    await stdoutShows(child, 'API key');
    child.kill('SIGTERM');
    const r = await child;
    expect(String(r.stdout) + String(r.stderr)).not.toContain(KEY);
    const lines = String(r.stdout).split('\n');
    expect(lines[0]).toMatch(/^Listening on http:\/\/127\.0\.0\.1:\d+$/);
    expect(lines[1]).toBe(`API keys: ${KEY.slice(0, 6)}…${KEY.slice(-4)}`);
    expect(r.exitCode).toBe(0);
  });
});
