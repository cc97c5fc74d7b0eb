// What reading a key kept in the OS keychain costs a command: `superagent config get api_key` with the
// key in the keychain against the same with the key in the config file, interleaved. Each keychain
// call runs in a Node process of its own (src/config/keychain-process.ts: a call a locked keyring
// never answers can then be given up); for comparison, the in-process read it replaced, as a fresh
// `node -e` that loads the binding and reads the key, against `node -e 0`. Needs dbus-daemon,
// dbus-send, gnome-keyring-daemon and secret-tool (Linux): a private session bus and an unlocked
// keyring in a temp HOME, removed at the end; skipped (exit 0) where they are missing.
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BENCH_KEY, BIN, timeCases } from './lib.js';

const PROGRAMS = ['dbus-daemon', 'dbus-send', 'gnome-keyring-daemon', 'secret-tool'];
const missing = PROGRAMS.filter((p) => spawnSync('sh', ['-c', `command -v ${p}`]).status !== 0);
if (process.platform !== 'linux' || missing.length > 0) {
  console.log(`keychain: skipped (${missing.join(', ') || 'not Linux'} missing)`);
  process.exit(0);
}

const runs = Number(process.env.RUNS ?? 20);
const home = fs.mkdtempSync(path.join(os.tmpdir(), 'superagent-bench-keychain-'));
const children = [];
try {
  const runtime = path.join(home, 'run');
  fs.mkdirSync(runtime, { mode: 0o700 });
  fs.writeFileSync(
    path.join(home, 'bus.conf'),
    `<busconfig><type>session</type><listen>unix:dir=${runtime}</listen>` +
      '<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow ' +
      'eavesdrop="true"/><allow own="*"/></policy></busconfig>\n',
  );
  const base = {
    PATH: process.env.PATH,
    HOME: home,
    XDG_DATA_HOME: path.join(home, 'data'),
    XDG_CONFIG_HOME: path.join(home, 'config'),
    XDG_RUNTIME_DIR: runtime,
  };
  const bus = spawn('dbus-daemon', [`--config-file=${path.join(home, 'bus.conf')}`, '--nofork', '--print-address=1'], {
    env: base,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  children.push(bus);
  const address = await new Promise((resolve) =>
    bus.stdout.once('data', (d) => resolve(String(d).split('\n')[0].trim())),
  );
  const env = { ...base, DBUS_SESSION_BUS_ADDRESS: address };
  const keyring = spawn('gnome-keyring-daemon', ['--foreground', '--components=secrets', '--unlock'], {
    env,
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  children.push(keyring);
  keyring.stdin.end('bench-keyring-password');
  for (let i = 0; spawnSync('secret-tool', ['search', 'x', 'y'], { env }).status !== 0 && i < 100; i++)
    await new Promise((r) => setTimeout(r, 50));

  // two config dirs: the key in the keychain, and the key in the file
  const inKeychain = path.join(home, 'keychain-config');
  const inFile = path.join(home, 'file-config');
  for (const [dir, profile] of [
    [inKeychain, { api_key_store: 'keychain' }],
    [inFile, { api_key: BENCH_KEY }],
  ]) {
    fs.mkdirSync(dir);
    fs.writeFileSync(
      path.join(dir, 'config.json'),
      JSON.stringify({ profiles: { default: { base_url: 'http://127.0.0.1:9', ...profile } } }),
      { mode: 0o600 },
    );
  }
  const account = `default@${path.join(inKeychain, 'config.json')}`;
  spawnSync('secret-tool', ['store', '--label=bench', 'service', 'superagent', 'username', account], {
    env,
    input: BENCH_KEY,
  });

  const masked = (o) => o.startsWith('sa_sk_…');
  const binding = createRequire(BIN).resolve('@napi-rs/keyring');
  const inProcess =
    `require(${JSON.stringify(binding)}).AsyncEntry && new ` +
    `(require(${JSON.stringify(binding)}).AsyncEntry)('superagent', ${JSON.stringify(account)}, { ` +
    `linux: { store: 'secret-service' } }).getPassword().then((k) => process.stdout.write(k))`;
  const results = timeCases(
    [
      {
        name: 'config get api_key, key in the file',
        cmd: process.execPath,
        args: [BIN, 'config', 'get', 'api_key'],
        env: { SUPERAGENT_CONFIG_DIR: inFile },
        check: masked,
      },
      {
        name: 'config get api_key, key in the keychain',
        cmd: process.execPath,
        args: [BIN, 'config', 'get', 'api_key'],
        env: { SUPERAGENT_CONFIG_DIR: inKeychain },
        check: masked,
      },
      { name: 'node -e 0', cmd: process.execPath, args: ['-e', '0'] },
      {
        name: 'node -e: binding loaded, key read',
        cmd: process.execPath,
        args: ['-e', inProcess],
        check: (o) => o === BENCH_KEY,
      },
    ],
    { runs, env },
  );
  const [file, keychain, bare, binder] = results;
  console.log(`\nReading a key kept in the keychain (${runs} runs each, medians)`);
  for (const r of results)
    console.log(
      `  ${r.name.padEnd(42)} median ${r.median.toFixed(1).padStart(6)} ms   min ${r.min.toFixed(1).padStart(6)} ms`,
    );
  console.log(
    `  cost of the keychain to a command (process of its own): ${(keychain.median - file.median).toFixed(1)} ms`,
  );
  console.log(
    `  cost of the same read in the command's own process:     ${(binder.median - bare.median).toFixed(1)} ms`,
  );
  console.log(JSON.stringify({ bench: 'keychain', runs, results }));
} finally {
  for (const child of children.reverse()) child.kill();
  await Promise.all(
    children.map((c) =>
      c.exitCode === null && c.signalCode === null ? new Promise((r) => c.once('exit', r)) : undefined,
    ),
  );
  fs.rmSync(home, { recursive: true, force: true });
}
