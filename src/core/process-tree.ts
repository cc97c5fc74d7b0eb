// Ending a child process together with what it started, as a terminal's hang-up would: the child and
// its descendants that are still in its process group. One that left the group on purpose (VS Code's
// window, started by `code --wait` and detached) is spared, as a hang-up would spare it.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

interface Proc {
  pid: number;
  ppid: number;
  pgid: number;
  /** ended, not yet reaped by its parent (a zombie) */
  ended: boolean;
}

/** Every process on the system: /proc on Linux, else `ps`; undefined when neither can be read. */
async function processTable(): Promise<Proc[] | undefined> {
  if (process.platform === 'linux') {
    try {
      return fromProc();
    } catch {
      // no /proc (a restricted container): ps may still work
    }
  }
  return fromPs();
}

function fromProc(): Proc[] {
  const table: Proc[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    // "pid (comm) state ppid pgrp …": the command may hold spaces and parentheses, so read after the last ')'
    const [state, ppid, pgid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    table.push({ pid: Number(name), ppid: Number(ppid), pgid: Number(pgid), ended: state === 'Z' || state === 'X' });
  }
  return table;
}

function fromPs(): Promise<Proc[] | undefined> {
  return new Promise((resolve) => {
    execFile('ps', ['-A', '-o', 'pid=', '-o', 'ppid=', '-o', 'pgid=', '-o', 'stat='], (err, stdout) => {
      if (err) return resolve(undefined);
      const table: Proc[] = [];
      for (const line of stdout.split('\n')) {
        const [pid, ppid, pgid, stat] = line.trim().split(/\s+/);
        if (!pid || !ppid || !pgid) continue;
        table.push({ pid: Number(pid), ppid: Number(ppid), pgid: Number(pgid), ended: stat?.startsWith('Z') === true });
      }
      resolve(table);
    });
  });
}

/** `root` and every process under it still in its process group, parents first. */
function groupTree(table: Proc[], root: Proc): number[] {
  const tree = [root.pid];
  for (let i = 0; i < tree.length; i++) {
    for (const p of table) if (p.ppid === tree[i] && p.pgid === root.pgid && !tree.includes(p.pid)) tree.push(p.pid);
  }
  return tree;
}

/**
 * Which of `pids` still run: in process group `pgid` (a PID given since to a process of another
 * group is not ours), not ended; where processes cannot be listed, whether the PID exists.
 */
async function stillRunning(pids: number[], pgid: number | undefined): Promise<number[]> {
  const table = await processTable();
  if (!table || pgid === undefined) return pids.filter(exists);
  return pids.filter((pid) => table.some((p) => p.pid === pid && p.pgid === pgid && !p.ended));
}

function exists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // ended meanwhile
  }
}

/**
 * Sends `name` to `pid` and the processes under it in its group; whatever of them still runs after
 * `graceMs` gets SIGKILL, so nothing is left running without the one who started it.
 */
export async function endGroupTree(pid: number, name: NodeJS.Signals, graceMs: number): Promise<void> {
  const table = await processTable();
  const root = table?.find((p) => p.pid === pid);
  const tree = table && root ? groupTree(table, root) : [pid];
  for (const each of tree) signal(each, name);
  const deadline = Date.now() + graceMs;
  let left = await stillRunning(tree, root?.pgid);
  while (left.length > 0 && Date.now() < deadline) {
    await sleep(50);
    left = await stillRunning(left, root?.pgid);
  }
  if (left.length === 0) return;
  // what a process that would not stop started meanwhile goes with it
  const now = root && (await processTable());
  const grown = now && now.some((p) => p.pid === pid) ? groupTree(now, root) : [];
  for (const each of new Set([...left, ...grown])) signal(each, 'SIGKILL');
}
