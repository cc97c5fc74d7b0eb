// API keys: held only as SHA-256 hashes, compared in constant time.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createFileOnce, makeDir } from '../core/atomic-write.js';
import { NotRegularFileError, readRegularFile } from '../core/regular-file.js';
import type { IncomingMessage } from 'node:http';
import { EMBEDDED_KEY_PREFIX } from '../contract.js';
import { Layout, safeName } from './store/layout.js';
import { StoreCorruptError } from './store/records.js';

export function hashKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

/** The account a key belongs to: a stable, non-reversible id used for ownership. */
export function accountId(keyHash: Buffer): string {
  return keyHash.toString('hex').slice(0, 24);
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function generateKey(): string {
  // 62 symbols: reject bytes >= 248 so every symbol is equally likely
  let body = '';
  while (body.length < 32) {
    for (const byte of randomBytes(48)) {
      if (byte < 248 && body.length < 32) body += ALPHABET[byte % 62];
    }
  }
  return EMBEDDED_KEY_PREFIX + body;
}

export class KeyRing {
  private readonly hashes: Buffer[];
  /** the key that last verified on each keep-alive connection: later requests with it skip the hash */
  private readonly verified = new WeakMap<object, { presented: string; hash: Buffer }>();

  constructor(keys: string[]) {
    this.hashes = keys.map(hashKey);
  }

  /** Accepts one more key from now on. */
  add(key: string): void {
    this.hashes.push(hashKey(key));
  }

  /** verify() remembered per connection (bench/server-throughput.js: a third of the GET path's CPU). */
  verifyOn(connection: object, presented: string | null): Buffer | null {
    const known = this.verified.get(connection);
    if (known && known.presented === presented) return known.hash;
    const hash = this.verify(presented);
    if (hash && presented) this.verified.set(connection, { presented, hash });
    return hash;
  }

  /** The hash of the presented key if it is one of ours, else null. Checks every key, so timing says nothing. */
  verify(presented: string | null): Buffer | null {
    if (!presented) return null;
    const candidate = hashKey(presented);
    let match: Buffer | null = null;
    for (const known of this.hashes) {
      if (timingSafeEqual(candidate, known)) match = known;
    }
    return match;
  }
}

export function presentedKey(req: IncomingMessage): string | null {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  if (m) return m[1]!;
  const header = req.headers['x-api-key'];
  return typeof header === 'string' && header.trim() ? header.trim() : null;
}

/**
 * The data dir's default key: created once (atomically, so concurrent first runs agree)
 * in a 0600 file, and reused by later runs and by the CLI's in-process service.
 */
export function loadOrCreateDefaultKey(dataDir: string): { key: string; created: boolean; file: string } {
  makeDir(dataDir);
  const file = path.join(dataDir, 'api-key');
  const existing = readKeyFile(file);
  if (existing) return { key: existing, created: false, file };
  const key = generateKey();
  // another process may get there first: then its key is the one
  if (createFileOnce(file, key + '\n')) return { key, created: true, file };
  return { key: readKeyFile(file)!, created: false, file };
}

function readKeyFile(file: string): string | null {
  try {
    const text = readRegularFile(file).trim();
    return text || null;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    // a FIFO in its place would block the start: never opened
    if (err instanceof NotRegularFileError) {
      throw new StoreCorruptError(`The key file ${err.message}; move it aside (a new key is made in its place)`);
    }
    throw err;
  }
}

/**
 * Whether the data dir holds an account for `key` (it has written something for it): the CLI's
 * in-process service takes a key it did not issue only then, so a mistyped key is refused rather
 * than given a new, empty account.
 */
export function keyHasAccount(dataDir: string, key: string): boolean {
  return fs.existsSync(path.join(new Layout(dataDir).accounts, safeName(accountId(hashKey(key)))));
}
