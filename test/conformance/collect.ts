// What the embedded services of one test file exchanged (startTestService records here), checked
// once by test/setup/conformance.ts's afterAll. A worker keeps this module from one file to the next
// (vitest.config.ts: isolate false), so the setup file resets it (list and opt-out) for each file.
import type { Exchange } from '../../src/server/index.js';

const exchanges: Exchange[] = [];
let responsesSkipped: string | undefined;

export function recordExchange(exchange: Exchange): void {
  exchanges.push(exchange);
}

/**
 * Opts the calling test file out of RESPONSE conformance (the CLI's request bodies are still
 * checked). Only for a file that must see a non-conforming answer on purpose; say why.
 */
export function skipResponseConformance(reason: string): void {
  if (reason.trim().length < 10) throw new Error('skipResponseConformance needs a reason');
  responsesSkipped = reason;
}

/** A file starts with nothing recorded and no opt-out (a file whose own afterAll threw never had its check). */
export function resetConformance(): void {
  exchanges.length = 0;
  responsesSkipped = undefined;
}

/** The file's problems, each distinct one once with how often it happened. */
export async function conformanceProblems(): Promise<string[]> {
  if (exchanges.length === 0) return [];
  // only files that talked to a service pay for ajv
  const { checkRequest, checkResponse } = await import('./openapi.js');
  const counts = new Map<string, number>();
  for (const ex of exchanges.splice(0)) {
    const problems = responsesSkipped === undefined ? [...checkRequest(ex), ...checkResponse(ex)] : checkRequest(ex);
    for (const p of problems) counts.set(p, (counts.get(p) ?? 0) + 1);
  }
  return [...counts].map(([p, n]) => (n > 1 ? `${p} (×${n})` : p));
}
