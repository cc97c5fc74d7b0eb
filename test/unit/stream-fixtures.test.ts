// Recorded streams in the shapes the hosted service and its relatives send (test/fixtures/streams),
// each replayed whole, split at every byte, and byte by byte through the reader, and once through
// the reply printer: the exact text is printed once, the tool calls are reported, and every failure
// event ends with exit 7 and the service's message.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SseDecoder, readReplyStream, type StreamEvent } from '../../src/api/sse.js';
import { printReply } from '../../src/cli/chat/print-reply.js';
import { EXIT, exitCodeFor } from '../../src/cli/exit-codes.js';
import type { SuperagentError } from '../../src/core/errors.js';
import { bareContext } from '../helpers/context.js';

const DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/streams');

interface Expected {
  text: string;
  session_id: string | null;
  /** [name, final state, duration in ms as the service measured it, or null] */
  tools: Array<[string, 'done' | 'failed', number | null]>;
  exit: 0 | 7;
  message?: string;
}

const FIXTURES = fs
  .readdirSync(DIR)
  .filter((f) => f.endsWith('.sse'))
  .map((f) => {
    const name = f.replace(/\.sse$/, '');
    return {
      name,
      bytes: new Uint8Array(fs.readFileSync(path.join(DIR, f))),
      expected: JSON.parse(fs.readFileSync(path.join(DIR, `${name}.expected.json`), 'utf8')) as Expected,
    };
  });

interface Outcome {
  text: string;
  sessionId: string | null;
  tools: Array<[string, string, number | null]>;
  /** tool events in order: the same call is reported when it starts and when it ends */
  toolEvents: number;
  exit: number;
  message?: string;
}

/** Feeds the chunks to a fresh decoder (a fixed clock, so durations come only from the service). */
function decode(chunks: Uint8Array[]): Outcome {
  const decoder = new SseDecoder(() => 0);
  const events: StreamEvent[] = [];
  for (const c of chunks) events.push(...decoder.push(c));
  events.push(...decoder.end());
  return outcome(events, decoder.failure);
}

function outcome(events: StreamEvent[], failure: SuperagentError | undefined): Outcome {
  const finals = new Map<string, [string, string, number | null]>();
  let sessionId: string | null = null;
  for (const e of events) {
    if (e.type === 'tool') finals.set(e.call.id, [e.call.name, e.call.state, e.call.durationMs ?? null]);
    if (e.type === 'session') sessionId = e.sessionId;
  }
  return {
    text: events.map((e) => (e.type === 'text' ? e.text : '')).join(''),
    sessionId,
    tools: [...finals.values()].map(([n, s, d]) => [n, s, d === 0 ? null : d]),
    toolEvents: events.filter((e) => e.type === 'tool').length,
    exit: failure ? exitCodeFor(failure) : EXIT.ok,
    message: failure?.message,
  };
}

function expectOutcome(got: Outcome, want: Expected): void {
  expect(got.text).toBe(want.text);
  expect(got.sessionId).toBe(want.session_id);
  expect(got.tools).toEqual(want.tools.map(([n, s, d]) => [n, s, d === null ? null : expect.closeTo(d, 5)]));
  expect(got.exit).toBe(want.exit);
  if (want.message) expect(got.message).toBe(want.message);
}

describe.each(FIXTURES)('recorded stream $name', ({ bytes, expected }) => {
  it('whole: the exact text once, the tool calls, the outcome', () => {
    expectOutcome(decode([bytes]), expected);
  });

  it('split at every byte: the same outcome wherever the chunk boundary falls', () => {
    for (let i = 1; i < bytes.length; i++) {
      const got = decode([bytes.subarray(0, i), bytes.subarray(i)]);
      expect({ at: i, text: got.text, exit: got.exit }).toEqual({ at: i, text: expected.text, exit: expected.exit });
      expect(got.tools.map(([n, s]) => [n, s])).toEqual(expected.tools.map(([n, s]) => [n, s]));
    }
  });

  it('byte by byte: the same outcome', () => {
    const chunks = Array.from(bytes, (_, i) => bytes.subarray(i, i + 1));
    expectOutcome(decode(chunks), expected);
  });

  it(
    'through the reply printer: stdout is the text once, ' + 'ended by a newline; failures exit 7 with the message',
    async () => {
      const out: string[] = [];
      const err: string[] = [];
      const stdout = { write: (s: string) => (out.push(s), true), isTTY: false };
      const stderr = { write: (s: string) => (err.push(s), true), isTTY: false };
      // only the printer is used; the rest of the world is stand-ins that fail if touched
      const ctx = bareContext({ stdout, stderr });
      const body = (async function* () {
        yield bytes;
      })();
      let code: number = EXIT.ok;
      let message: string | undefined;
      let reply: Awaited<ReturnType<typeof printReply>> | undefined;
      try {
        reply = await printReply(ctx, readReplyStream(body, { contentType: 'text/event-stream' }), { tools: 'log' });
      } catch (e) {
        code = exitCodeFor(e);
        message = (e as Error).message;
      }
      const printed = out.join('');
      expect(printed).toBe(expected.text === '' ? '' : `${expected.text}${expected.text.endsWith('\n') ? '' : '\n'}`);
      expect(code).toBe(expected.exit);
      if (expected.message) expect(message).toBe(expected.message);
      // tool calls are on stderr (one line each as they end), never in the reply text
      const toolLines = err
        .join('')
        .split('\n')
        .filter((l) => l.startsWith('⚙ '));
      expect(toolLines.map((l) => l.slice(2).split('(')[0])).toEqual(expected.tools.map(([n]) => n));
      for (const line of toolLines) expect(printed).not.toContain(line);
      if (reply) expect(reply.toolCalls.map((c) => c.name)).toEqual(expected.tools.map(([n]) => n));
    },
  );
});

it('covers every stream dialect the client reads: Agno, the web app, OpenAI chunks, old deltas, errors', () => {
  expect(FIXTURES.map((f) => f.name).sort()).toEqual(
    expect.arrayContaining([
      'agno2-agent-chat-tools',
      'agno1-assistant',
      'webapp-reader',
      'openai-chunks',
      'old-delta-frames',
      'error-midstream',
      'agno-run-error',
    ]),
  );
});
