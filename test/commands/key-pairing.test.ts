// A key given for one command (SUPERAGENT_API_KEY, --api-key) and the base URL of the active profile:
// a hosted key (gb_sk_) never goes to a server only the profile named (a local `superagent server`,
// say), but to the hosted service; whoami and the first --debug line say what chose the base URL.
// The rule, row by row: test/unit/config-resolve.test.ts.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MemoryConfig, runLine, type RunOptions } from '../helpers/context.js';
import { stopService } from '../helpers/service-support.js';
import { startTestService, type TestService } from '../helpers/service.js';

const LOCAL_KEY = 'sa_sk_' + 'Kk1Ll2Mm3Nn4Oo5Pp6Qq7Rr8Ss9Tt0Uv';
const HOSTED_KEY = 'gb_sk_' + 'Hh1Oo2Ss3Tt4Ee5Dd6Kk7Ee8Yy9Zz0Ab';

/** `local`: a server the profile logged in to; `hosted`: stands in for the hosted service (SUPERAGENT_HOSTED_URL) */
let local: TestService;
let hosted: TestService;
beforeAll(async () => {
  local = await startTestService({ keys: [LOCAL_KEY, HOSTED_KEY] });
  hosted = await startTestService({ keys: [HOSTED_KEY] });
});
afterAll(async () => {
  await stopService(local);
  await stopService(hosted);
});
beforeEach(() => {
  local.exchanges.splice(0);
  hosted.exchanges.splice(0);
});

const atLocal = () =>
  new MemoryConfig({ active_profile: 'default', profiles: { default: { base_url: local.url, api_key: LOCAL_KEY } } });
const cli = (argv: string[], o: RunOptions = {}) =>
  runLine(undefined, argv, { config: atLocal(), ...o, env: { SUPERAGENT_HOSTED_URL: hosted.url, ...o.env } });

describe('a gb_sk_ key from SUPERAGENT_API_KEY while the profile points at a local server', () => {
  const why =
    `a gb_sk_ key comes from SUPERAGENT_API_KEY, and the base URL ` +
    `of profile 'default' (${'LOCAL'}) is not the hosted ` +
    "service's, so it is not used for that key (SUPERAGENT_BASE_URL or --base-url would be)";
  const reason = () => why.replace('LOCAL', local.url);

  it('goes to the hosted service, never to the local one; the first --debug line says why', async () => {
    const r = await cli(['list', '--debug'], { env: { SUPERAGENT_API_KEY: HOSTED_KEY } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.split('\n')[0]).toBe(`superagent: using the hosted service at ${hosted.url}: ${reason()}`);
    expect(local.cliRequests()).toEqual([]);
    expect(hosted.cliRequests()).toEqual([{ method: 'GET', path: '/v1/superagents', body: undefined }]);
  });

  it('whoami says so', async () => {
    const r = await cli(['whoami', '--json'], { env: { SUPERAGENT_API_KEY: HOSTED_KEY } });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      base_url: hosted.url,
      key_source: 'env',
      service: 'hosted',
      reason: reason(),
    });
    expect(local.cliRequests()).toEqual([]);
  });

  it('--api-key likewise; SUPERAGENT_BASE_URL (or --base-url) sends it to the local server when asked', async () => {
    expect((await cli(['list', '--api-key', HOSTED_KEY])).code).toBe(0);
    expect(local.cliRequests()).toEqual([]);
    const asked = await cli(['list', '--debug'], {
      env: { SUPERAGENT_API_KEY: HOSTED_KEY, SUPERAGENT_BASE_URL: local.url },
    });
    expect(asked.code, asked.stderr).toBe(0);
    expect(asked.stderr.split('\n')[0]).toBe(
      `superagent: using the service at ${local.url}: the base URL comes from SUPERAGENT_BASE_URL`,
    );
    expect(local.cliRequests()).toHaveLength(1);
  });
});
