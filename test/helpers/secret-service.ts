// A Secret Service of a test's own, as a desktop session has one: a private D-Bus session bus (no
// service activation, so nothing else starts on it) and gnome-keyring-daemon with its login keyring
// unlocked by a password on stdin, in a temp HOME and XDG dirs: the user's own keyring is never
// touched. Debian's dbus-daemon, gnome-keyring and libsecret-tools (.ci/run installs them); where a
// program is missing, `missingPrograms` names it and the tests say they are skipped.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { tempDir } from './service.js';

const PROGRAMS = ['dbus-daemon', 'dbus-send', 'gnome-keyring-daemon', 'secret-tool'];
/** GNOME's unlock prompt (the gcr package, a dependency of gnome-keyring), and a display for it that nobody watches */
const PROMPTER = '/usr/libexec/gcr-prompter';
const PROMPT_PROGRAMS = ['broadwayd', PROMPTER];

export function missingPrograms(o: { prompt?: boolean } = {}): string[] {
  const needed = [...PROGRAMS, ...(o.prompt ? PROMPT_PROGRAMS : [])];
  return needed.filter((p) => spawnSync('sh', ['-c', `command -v ${p}`]).status !== 0);
}

export interface SecretService {
  /** the environment a process needs to use it (DBUS_SESSION_BUS_ADDRESS, HOME, XDG dirs) */
  env: Record<string, string>;
  /** `secret-tool lookup`: the secret filed under these attributes, or null */
  lookup(attributes: Record<string, string>): Promise<string | null>;
  /** `secret-tool store` */
  store(attributes: Record<string, string>, secret: string): Promise<void>;
  /** Locks the keyring; with no prompter on the bus, gnome-keyring dismisses any unlock prompt at once. */
  lock(): Promise<void>;
  /**
   * Locks the keyring, with an unlock prompt that nobody answers: GNOME's prompter on a display of
   * its own (GTK's broadway, on a Unix socket) that nobody looks at, as on a desktop left locked.
   * Anything that needs the keyring then waits for ever. Needs missingPrograms({ prompt: true }).
   */
  lockUnanswered(): Promise<void>;
  /** the processes still running on this bus, other than the ones it was started with (pid and command line) */
  othersOnBus(): string[];
  /** Stops the bus's dbus-daemon (SIGSTOP): it still takes connections (the kernel does), but answers none. */
  freezeBus(): void;
  /** Lets it run again (SIGCONT); stop() does too. */
  thawBus(): void;
  stop(): Promise<void>;
}

type Child = ResultPromise<{ reject: false; buffer: false }>;

/** `unlocked: false`: the daemon runs with no unlocked keyring (a store needs a prompt nobody can answer). */
export async function startSecretService(o: { unlocked?: boolean } = {}): Promise<SecretService> {
  const home = tempDir('superagent-keyring-');
  const children: Child[] = [];
  const stop = async () => {
    children[0]?.kill('SIGCONT'); // a stopped bus would hold its SIGTERM until then
    for (const child of children.reverse()) child.kill();
    await Promise.all(children.map((c) => c.catch(() => undefined)));
    fs.rmSync(home, { recursive: true, force: true });
  };
  try {
    const runtime = path.join(home, 'run');
    fs.mkdirSync(runtime, { mode: 0o700 });
    const conf = path.join(home, 'bus.conf');
    fs.writeFileSync(conf, busConfig(runtime));
    const base = {
      PATH: process.env.PATH ?? '',
      HOME: home,
      XDG_DATA_HOME: path.join(home, 'data'),
      XDG_CONFIG_HOME: path.join(home, 'config'),
      XDG_RUNTIME_DIR: runtime,
    };
    const bus = execa('dbus-daemon', [`--config-file=${conf}`, '--nofork', '--print-address=1'], {
      env: base,
      extendEnv: false,
      reject: false,
      buffer: false,
    }) as Child;
    children.push(bus);
    const address = await firstLine(bus);
    const env = { ...base, DBUS_SESSION_BUS_ADDRESS: address };
    const keyring = execa(
      'gnome-keyring-daemon',
      ['--foreground', '--components=secrets', ...(o.unlocked === false ? [] : ['--unlock'])],
      {
        env,
        extendEnv: false,
        reject: false,
        buffer: false,
        input: o.unlocked === false ? '' : 'test-keyring-password',
      },
    ) as Child;
    children.push(keyring);
    await untilOwned(env, 'org.freedesktop.secrets');
    const lock = async () => {
      const login = 'array:objpath:/org/freedesktop/secrets/collection/login';
      const service = ['--dest=org.freedesktop.secrets', '/org/freedesktop/secrets'];
      const args = ['--session', '--print-reply', ...service, 'org.freedesktop.Secret.Service.Lock', login];
      await execa('dbus-send', args, { env, extendEnv: false });
    };
    return {
      env,
      async lookup(attributes) {
        const r = await execa('secret-tool', ['lookup', ...Object.entries(attributes).flat()], {
          env,
          extendEnv: false,
          reject: false,
        });
        return r.exitCode === 0 ? String(r.stdout) : null;
      },
      async store(attributes, secret) {
        const args = ['store', '--label=test', ...Object.entries(attributes).flat()];
        await execa('secret-tool', args, { env, extendEnv: false, input: secret });
      },
      async lockUnanswered() {
        // its web viewer on a Unix socket (no port): nobody will look
        const viewer = ['--unixsocket', path.join(runtime, 'broadway-http'), ':5'];
        const display = execa('broadwayd', viewer, { env, extendEnv: false, reject: false, buffer: false }) as Child;
        children.push(display);
        await untilSaid(display, 'Listening on');
        const onDisplay = { ...env, GDK_BACKEND: 'broadway', BROADWAY_DISPLAY: ':5', NO_AT_BRIDGE: '1' };
        const prompter = execa(PROMPTER, { env: onDisplay, extendEnv: false, reject: false, buffer: false }) as Child;
        children.push(prompter);
        await untilOwned(env, 'org.gnome.keyring.SystemPrompter');
        await lock();
      },
      lock,
      freezeBus: () => void bus.kill('SIGSTOP'),
      thawBus: () => void bus.kill('SIGCONT'),
      othersOnBus() {
        const ours = new Set(children.map((c) => c.pid));
        return processesWith(`DBUS_SESSION_BUS_ADDRESS=${address}`).filter((p) => !ours.has(Number(p.split(' ')[0])));
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

function busConfig(runtime: string): string {
  return (
    `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" ` +
    `"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:dir=${runtime}</listen>
  <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow ` +
    `own="*"/></policy>
</busconfig>
`
  );
}

function firstLine(child: Child): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (out.includes('\n')) resolve(out.split('\n')[0]!.trim());
    });
    void child.then(() => reject(new Error(`dbus-daemon ended before saying its address: ${out}`)));
  });
}

/** Resolves once `child` has said `words` (on stdout or stderr). */
function untilSaid(child: Child, words: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = '';
    for (const stream of [child.stdout!, child.stderr!]) {
      stream.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk;
        if (out.includes(words)) resolve();
      });
    }
    void child.then(() => reject(new Error(`it ended before saying '${words}': ${out}`)));
  });
}

/** `pid command line` of each process of this user whose environment holds `entry` (Linux: /proc). */
function processesWith(entry: string): string[] {
  const found: string[] = [];
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (!fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(entry)) continue;
      found.push(`${pid} ${fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim()}`);
    } catch {
      // gone meanwhile, or another user's
    }
  }
  return found;
}

/** Waits (5 s at most) until `name` has an owner on the bus: the daemon is ready. */
async function untilOwned(env: Record<string, string>, name: string): Promise<void> {
  const args = [
    '--session',
    '--dest=org.freedesktop.DBus',
    '--print-reply',
    '/org/freedesktop/DBus',
    'org.freedesktop.DBus.NameHasOwner',
    `string:${name}`,
  ];
  for (let i = 0; i < 100; i++) {
    const r = await execa('dbus-send', args, { env, extendEnv: false, reject: false });
    if (String(r.stdout).includes('boolean true')) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${name} did not appear on the test's session bus`);
}
