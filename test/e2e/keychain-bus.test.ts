// A D-Bus session bus that takes the connection and never answers (a hung or stopped dbus-daemon):
// the keychain's process says when it has reached the Secret Service, so such a bus is told from a
// locked keyring. A command needing the key ends naming the bus (exit 3); `login` keeps the key in
// the 0600 file, said in one line, as it does with no keychain at all. The bus: a Unix socket of the
// test's own that never says a word, and a real dbus-daemon (test/helpers/secret-service.ts) stopped
// by SIGSTOP. Runs the built CLI (`npm run build` first when alone).
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { missingPrograms, startSecretService, type SecretService } from '../helpers/secret-service.js';
import { perTest, stopService } from '../helpers/service-support.js';
import { startTestService, type TestService } from '../helpers/service.js';

const KEY = 'sa_sk_' + 'Kk1Ll2Mm3Nn4Oo5Pp6Qq7Rr8Ss9Tt0Uv';
const LINUX = process.platform === 'linux';
const NOT_LINUX = 'skipped: the D-Bus session bus is a Linux keychain';
const MISSING = LINUX ? missingPrograms() : [];
const NO_DAEMON = !LINUX ? NOT_LINUX : `skipped: ${MISSING.join(', ')} missing (.ci/run installs them)`;

const temp = perTest();
let svc: TestService;
let secrets: SecretService | undefined;

beforeAll(async () => {
  svc = await startTestService({ keys: [KEY] });
});
afterAll(async () => {
  await stopService(svc);
});
afterEach(async () => {
  await secrets?.stop();
  secrets = undefined;
});

const configFile = (dir: string) => path.join(dir, 'config.json');
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A config dir whose default profile keeps its key in the keychain. */
function keptInKeychain(): string {
  const dir = temp.scratch('superagent-config-');
  const profile = { base_url: svc.url, api_key_store: 'keychain' };
  fs.writeFileSync(configFile(dir), JSON.stringify({ profiles: { default: profile } }), { mode: 0o600 });
  return dir;
}

/** A bus that takes connections and never says a word: its address, and how many connected. */
async function silentBus(): Promise<{ address: string; connections: () => number }> {
  const socket = path.join(temp.scratch('superagent-bus-'), 'bus');
  const held = new Set<net.Socket>();
  const server = net.createServer((s) => void held.add(s.on('error', () => undefined)));
  await new Promise<void>((resolve) => server.listen(socket, resolve));
  let connections = 0;
  server.on('connection', () => connections++);
  temp.closeAfter({
    close: () => {
      for (const s of held) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  });
  return { address: `unix:path=${socket}`, connections: () => connections };
}

/** What the CLI says while it waits on a bus that does not answer, and then. */
function unanswered(address: string, seconds: number) {
  const keychain = `the OS keychain \\(D-Bus session bus at ${escaped(address.replace(/,guid=\w+/, ''))}\\)`;
  const waiting = `! Waiting for ${keychain} to answer \\(giving up after ${seconds} s\\)\n`;
  return { waiting, keychain, didNot: `${keychain} did not answer within ${seconds} s` };
}

describe.skipIf(!LINUX)(`a session bus that never answers${LINUX ? '' : ` (${NOT_LINUX})`}`, () => {
  it('a command needing the key ends after --timeout naming the bus, not a locked keyring: exit 3', async () => {
    const bus = await silentBus();
    const dir = keptInKeychain();
    const env = { DBUS_SESSION_BUS_ADDRESS: bus.address };
    const list = await runCli(['list', '--timeout', '2'], { configDir: dir, env });
    expect([list.exitCode, list.stdout]).toEqual([3, '']);
    const said = unanswered(bus.address, 2);
    const error = `Error: ${said.didNot} when asked for the key of profile 'default' \\([^\n]+\\)\n`;
    expect(list.stderr).toMatch(new RegExp(`^${said.waiting}${error}$`));
    expect(list.stderr).not.toMatch(/locked/);
    expect(bus.connections()).toBeGreaterThan(0);
  });

  it('login keeps the key in the 0600 file and says so in one line, as with no keychain', async () => {
    const bus = await silentBus();
    const dir = temp.scratch('superagent-config-');
    const argv = ['login', '--with-token', '--base-url', svc.url, '--timeout', '2'];
    const env = { DBUS_SESSION_BUS_ADDRESS: bus.address };
    const login = await runCli(argv, { configDir: dir, env, input: KEY });
    expect(login.exitCode).toBe(0);
    const said = unanswered(bus.address, 2);
    const file = escaped(configFile(dir));
    const kept =
      `! T${said.didNot.slice(1)}: the key is kept in ${file} ` +
      `\\(mode 0600\\) instead \\([^\n]+\nLogged in to [^\n]+\n`;
    expect(login.stderr).toMatch(new RegExp(`^${said.waiting}${kept}$`));
    const written = JSON.parse(fs.readFileSync(configFile(dir), 'utf8'));
    expect(written.profiles.default).toEqual({ base_url: svc.url, api_key: KEY });
    expect(fs.statSync(configFile(dir)).mode & 0o777).toBe(0o600);
  });
});

const DAEMON_WHY = LINUX && !MISSING.length ? '' : ` (${NO_DAEMON})`;

describe.skipIf(!LINUX || MISSING.length > 0)(`a dbus-daemon stopped by SIGSTOP${DAEMON_WHY}`, () => {
  it('a command needing the key names the bus; login keeps the key in the file; both once it runs again', async () => {
    secrets = await startSecretService();
    const dir = keptInKeychain();
    await secrets.store({ service: 'superagent', username: `default@${configFile(dir)}` }, KEY);
    const address = secrets.env.DBUS_SESSION_BUS_ADDRESS!;
    secrets.freezeBus();
    const said = unanswered(address, 2);
    const list = await runCli(['list', '--timeout', '2'], { configDir: dir, env: secrets.env });
    expect([list.exitCode, list.stdout]).toEqual([3, '']);
    expect(list.stderr).toMatch(new RegExp(`^${said.waiting}Error: ${said.didNot} when asked for the key`));

    const other = temp.scratch('superagent-config-');
    const argv = ['login', '--with-token', '--base-url', svc.url, '--timeout', '2'];
    const login = await runCli(argv, { configDir: other, env: secrets.env, input: KEY });
    expect(login.exitCode).toBe(0);
    expect(login.stderr).toMatch(new RegExp(`^${said.waiting}! T${said.didNot.slice(1)}: the key is kept in `));
    expect(JSON.parse(fs.readFileSync(configFile(other), 'utf8')).profiles.default.api_key).toBe(KEY);

    secrets.thawBus();
    const again = await runCli(['list'], { configDir: dir, env: secrets.env });
    // a waiting line may come first: a call over a second on a loaded machine
    expect([again.exitCode, again.stderr]).toEqual([0, expect.not.stringMatching(/Error|did not answer/)]);
  });
});
