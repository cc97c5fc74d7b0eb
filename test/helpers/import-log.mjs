// Preloaded into the built binary with `node --import` (NODE_OPTIONS): every module URL the process
// imports (ESM: the CLI's vendor bundles are imported so) is appended to the file $IMPORT_LOG, one a
// line. Module hooks run in a thread of their own; this file is also that thread's hooks module.
import fs from 'node:fs';
import { register } from 'node:module';
import { isMainThread } from 'node:worker_threads';

if (isMainThread) register(import.meta.url, { data: process.env.IMPORT_LOG });

let log;

export function initialize(file) {
  log = file;
}

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (log) fs.appendFileSync(log, `${resolved.url}\n`);
  return resolved;
}
