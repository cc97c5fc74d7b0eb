// Edits of soul.md kept for a later `soul edit`, whenever a run did not upload its edit: declined, a
// conflict, a failure, or ended from outside (SIGTERM; SIGHUP, the terminal gone, and with it the line
// saying where the edit is). As an editor offers its swap file, the next `soul edit` of that agent
// offers to resume one. A kept edit is the draft's directory as the editor left it (the file, and any
// rescue file of the editor's beside it, which it finds there again) with a note of what it is, under
// the data dir, apart per profile and service (an agent id means nothing to another service, and a
// profile may be another account):
//
//   <data dir>/soul-edits/<hash of profile and service>/<agent id*>.<kept at, ms>.<random>/
//       <name>.soul.md
//       .superagent-kept.json         {"agent_id", "name", "kept_at", "base_sha256", "file_name"}
//
// * as it is when it is a plain word (a uuid); else a hash of it: the id comes from the service.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { dataDir } from '../../../config/paths.js';
import { newPrivateDir, privateFileIn, type PrivateFile } from '../../../ui/editor.js';
import type { Context } from '../../context.js';

const NOTE = '.superagent-kept.json';

export interface KeptEdit {
  dir: string;
  file: string;
  /** the agent's name when it was kept */
  name: string;
  /** when it was kept (ISO 8601) */
  keptAt: string;
  /** soulHash of the soul.md the edit began from */
  base: string;
}

export function soulHash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** An agent id as a file name: as it is when plain, else its hash (an id with `/` or `..` stays inside). */
function idKey(agentId: string): string {
  if (/^[A-Za-z0-9_-]{1,100}$/.test(agentId)) return agentId;
  return `~${createHash('sha256').update(agentId).digest('hex').slice(0, 32)}`;
}

export class KeptEdits {
  /** The kept edits under `root` (`of` finds the root of a command's service). */
  constructor(readonly root: string) {}

  /** The kept edits of the service and profile this command talks to. */
  static async of(ctx: Context): Promise<KeptEdits> {
    const { connection } = await ctx.api();
    const data = dataDir(ctx.env);
    const scope = `${connection.profileName}|${connection.baseUrl ?? `embedded:${data}`}`;
    return new KeptEdits(path.join(data, 'soul-edits', createHash('sha256').update(scope).digest('hex').slice(0, 16)));
  }

  /** The edit of this agent kept last, if any. */
  newest(agentId: string): KeptEdit | undefined {
    let names: string[];
    try {
      names = fs.readdirSync(this.root);
    } catch {
      return undefined; // none kept yet
    }
    const kept = names.filter((n) => n.startsWith(`${idKey(agentId)}.`)).map((n) => readKept(path.join(this.root, n)));
    return kept.filter((k): k is KeptEdit => k !== undefined).sort((a, b) => b.keptAt.localeCompare(a.keptAt))[0];
  }

  /** Files the draft here (its directory moved, with its note); the draft where it now is. */
  keep(draft: PrivateFile, note: { agentId: string; name: string; keptAt: string; base: string }): PrivateFile {
    const written = {
      agent_id: note.agentId,
      name: note.name,
      kept_at: note.keptAt,
      base_sha256: note.base,
      file_name: path.basename(draft.path),
    };
    fs.writeFileSync(path.join(draft.dir, NOTE), JSON.stringify(written) + '\n', { mode: 0o600 });
    fs.mkdirSync(this.root, { recursive: true, mode: 0o700 });
    const entry = `${idKey(note.agentId)}.${Date.parse(note.keptAt)}.${randomBytes(4).toString('hex')}`;
    const dir = path.join(this.root, entry);
    move(draft.dir, dir);
    return privateFileIn(dir, draft.path);
  }

  /**
   * Takes a kept edit out to edit it again, into a private directory of its own under `tmpDir` like
   * any draft: a run that resumes it owns it (a second run at once finds it gone).
   */
  claim(kept: KeptEdit, tmpDir?: string): PrivateFile {
    const dir = newPrivateDir(tmpDir);
    fs.rmdirSync(dir); // its name, free for the kept directory
    move(kept.dir, dir);
    fs.rmSync(path.join(dir, NOTE), { force: true });
    return privateFileIn(dir, kept.file);
  }

  discard(kept: KeptEdit): void {
    fs.rmSync(kept.dir, { recursive: true, force: true });
  }
}

function readKept(dir: string): KeptEdit | undefined {
  try {
    const note = JSON.parse(fs.readFileSync(path.join(dir, NOTE), 'utf8')) as Record<string, unknown>;
    const text = (key: string) => (typeof note[key] === 'string' ? (note[key] as string) : undefined);
    const [name, keptAt, base, fileName] = [text('name'), text('kept_at'), text('base_sha256'), text('file_name')];
    if (name === undefined || keptAt === undefined || base === undefined || fileName === undefined) return undefined;
    const file = path.join(dir, path.basename(fileName));
    return fs.existsSync(file) ? { dir, file, name, keptAt, base } : undefined;
  } catch {
    return undefined; // not a kept edit (half-moved, or not ours)
  }
}

/** Moves a directory; across file systems (a tmpfs /tmp), a copy, then the original removed. */
function move(from: string, to: string): void {
  try {
    fs.renameSync(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    fs.cpSync(from, to, { recursive: true, errorOnExist: true, force: false, preserveTimestamps: true });
    fs.chmodSync(to, 0o700);
    fs.rmSync(from, { recursive: true, force: true });
  }
}
