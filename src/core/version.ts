import { readFileSync } from 'node:fs';

/** Read on demand (only `--version` and the User-Agent need it). */
export function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}
