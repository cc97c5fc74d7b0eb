// A real full disk or read-only file system for a test: a tmpfs of a few pages mounted on a fresh
// temp dir. Mounting needs root and a system that allows it (a container may not): a test file asks
// `whyNoMounts()` once and skips what needs a mount, saying why. Every mount is unmounted (and its
// dir removed) when the test that made it finishes, however it ends.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { onTestFinished } from 'vitest';
import { tempDir } from './service.js';

/** The file `fill()` writes, at the mount's top (tests look for leftovers below it). */
export const FILLER = '.filler';

export interface SmallFs {
  /** where it is mounted */
  dir: string;
  /** writes a file until the file system is full (new empty files and directories still fit) */
  fill(): void;
  /** removes what `fill` wrote: there is room again */
  unfill(): void;
  /** mounts it again read-only (what is in it stays readable) */
  readOnly(): void;
}

function mount(dir: string, sizeKb: number): void {
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeKb}k,mode=0700`, 'tmpfs', dir], { stdio: 'pipe' });
}

function unmount(dir: string): void {
  try {
    execFileSync('umount', [dir], { stdio: 'pipe' });
  } catch {
    // still busy (a file left open by a failed test): detached now, gone once it is closed
    execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
  }
}

/** Why this machine cannot mount a tmpfs for a test (undefined: it can). Call once per test file. */
export function whyNoMounts(): string | undefined {
  if (process.platform !== 'linux') return 'tmpfs mounts are tried on Linux only';
  if (process.getuid?.() !== 0) return 'mounting a tmpfs needs root';
  const dir = tempDir('superagent-mount-probe-');
  try {
    mount(dir, 64);
    unmount(dir);
    return undefined;
  } catch (err) {
    return `mount refused here: ${
      String((err as { stderr?: Buffer }).stderr ?? err)
        .trim()
        .split('\n')[0]
    }`;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A tmpfs of `sizeKb` on a fresh temp dir, unmounted when the current test finishes. */
export function smallFs(sizeKb = 512): SmallFs {
  const dir = tempDir('superagent-smallfs-');
  mount(dir, sizeKb);
  onTestFinished(() => {
    unmount(dir);
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const filler = path.join(dir, FILLER);
  return {
    dir,
    fill() {
      const fd = fs.openSync(filler, 'a');
      const page = Buffer.alloc(4096, 1);
      try {
        for (;;) fs.writeSync(fd, page);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
      } finally {
        fs.closeSync(fd);
      }
    },
    unfill() {
      fs.rmSync(filler, { force: true });
    },
    readOnly() {
      execFileSync('mount', ['-o', 'remount,ro', dir], { stdio: 'pipe' });
    },
  };
}

/** Every file under `dir` (relative paths), but the filler. */
export function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f !== FILLER && fs.lstatSync(path.join(dir, f)).isFile())
    .sort();
}
