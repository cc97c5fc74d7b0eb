// The config file's read-modify-write under a cross-process lock, where only processes show it: two
// loops of `config set` on different profiles lost writes (each read the file, then wrote over the
// other's change), every command exiting 0. Runs the built CLI (`npm run build` first when alone).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_LOCK, CONFIG_VERSION } from '../../src/config/file.js';
import { Locks } from '../../src/core/file-lock.js';
import { runCli } from '../helpers/cli.js';
import { perTest } from '../helpers/service-support.js';

const temp = perTest();

const configFile = (dir: string) => path.join(dir, 'config.json');
const readConfig = (dir: string) => JSON.parse(fs.readFileSync(configFile(dir), 'utf8'));
const pause = (ms: number) => new Promise<'waiting'>((resolve) => setTimeout(() => resolve('waiting'), ms));

describe('config writes from several processes', () => {
  it('a write waits while another process holds the config lock, and keeps that process’s change', async () => {
    const dir = temp.scratch('superagent-config-lock-');
    fs.writeFileSync(configFile(dir), JSON.stringify({ profiles: {} }), { mode: 0o600 });
    let child!: ReturnType<typeof runCli>;
    await new Locks(dir).with(CONFIG_LOCK, async () => {
      child = runCli(['config', 'set', 'output', 'json', '--profile', 'b'], { configDir: dir });
      // the child has time to start and reach its write; it may not end while the lock is held
      expect(await Promise.race([child.then(() => 'ended'), pause(1_500)])).toBe('waiting');
      // the holder's own read-modify-write
      fs.writeFileSync(configFile(dir), JSON.stringify({ profiles: { a: { model: 'gpt-4o' } } }));
    });
    const r = await child;
    expect([r.exitCode, r.stderr]).toEqual([0, '']);
    expect(readConfig(dir)).toEqual({
      version: CONFIG_VERSION,
      profiles: { a: { model: 'gpt-4o' }, b: { output: 'json' } },
    });
  });

  it('eight processes setting eight profiles at once: all eight are saved', async () => {
    const dir = temp.scratch('superagent-config-lock-');
    const names = Array.from({ length: 8 }, (_, i) => `p${i}`);
    const runs = await Promise.all(
      names.map((name) => runCli(['config', 'set', 'model', `model-${name}`, '--profile', name], { configDir: dir })),
    );
    expect(runs.map((r) => r.exitCode)).toEqual(names.map(() => 0));
    expect(Object.keys(readConfig(dir).profiles).sort()).toEqual(names);
    expect(fs.readdirSync(dir).sort()).toEqual(['config.json']);
  });
});
