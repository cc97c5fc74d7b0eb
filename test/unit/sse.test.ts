// The SSE reader (docs/api.md, Streaming replies) fed every tolerance the client promises, plus property tests: the
// same stream split at random places (inside lines, CRLF pairs and UTF-8 characters) always gives
// the same text.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StreamCutError } from '../../src/api/errors.js';
import { readReplyStream, replyFromJson, SseDecoder, type StreamEvent } from '../../src/api/sse.js';
import { EXIT, exitCodeFor } from '../../src/cli/exit-codes.js';
import { InterruptedError } from '../../src/core/errors.js';
import { cutAt } from '../helpers/cut.js';

const SID = '0b7e2a52-5d0c-4d5e-9a55-3f7f4d1f2c11';

/** A body that yields the given chunks, then optionally fails like a cut connection. */
function body(chunks: Array<string | Uint8Array>, failWith?: Error) {
  const gen = (async function* () {
    for (const c of chunks) {
      await Promise.resolve();
      yield typeof c === 'string' ? new TextEncoder().encode(c) : c;
    }
    if (failWith) throw failWith;
  })();
  return Object.assign(gen, {
    destroyCalls: [] as Array<Error | undefined>,
    destroy(err?: Error) {
      this.destroyCalls.push(err);
    },
  });
}

const NO_TEXT = 'the service ended the reply without any text';

async function collect(chunks: Array<string | Uint8Array>, contentType = 'text/event-stream') {
  const events: StreamEvent[] = [];
  for await (const e of readReplyStream(body(chunks), { contentType })) events.push(e);
  return events;
}

function textOf(events: StreamEvent[]): string {
  return events.map((e) => (e.type === 'text' ? e.text : '')).join('');
}

/** The text of a reply that is done: one `done` event, the last (the text is in the text events only). */
function doneText(events: StreamEvent[]): string {
  const done = events.filter((e) => e.type === 'done');
  expect(done).toHaveLength(1);
  expect(events.at(-1)).toBe(done[0]);
  return textOf(events);
}

const ours = (pieces: string[]) =>
  [
    `event: session\ndata: ${JSON.stringify({ session_id: SID })}\n\n`,
    ...pieces.map((p) => `event: delta\ndata: ${JSON.stringify({ content: p })}\n\n`),
    `event: done\ndata: ${JSON.stringify({ session_id: SID, content: pieces.join('') })}\n\n`,
  ].join('');

describe('readReplyStream: the embedded service’s own events', () => {
  it(
    'yields the session, each piece in order as it arrives, ' + 'then one done (the text is not repeated in it)',
    async () => {
      const events = await collect(ours(['Hel', 'lo ', 'world']).split(/(?<=\n\n)/));
      expect(events).toEqual([
        { type: 'session', sessionId: SID },
        { type: 'text', text: 'Hel' },
        { type: 'text', text: 'lo ' },
        { type: 'text', text: 'world' },
        { type: 'done', sessionId: SID },
      ]);
    },
  );

  it('pieces that arrive in one chunk come out as one piece (one write, not one per piece)', async () => {
    const events = await collect([ours(['Hel', 'lo ', 'world'])]);
    expect(events).toEqual([
      { type: 'session', sessionId: SID },
      { type: 'text', text: 'Hello world' },
      { type: 'done', sessionId: SID },
    ]);
  });

  it('skips `: ping` comments and keeps the assistant’s timestamp', async () => {
    const events = await collect([
      ': ping\n\n',
      `event: delta\ndata: {"content":"a"}\n\n: ping\n\n`,
      `event: done\ndata: {"session_id":"${SID}","content":"a","timestamp":"2025-01-01T00:00:00.000Z"}\n\n`,
    ]);
    expect(events).toEqual([
      { type: 'text', text: 'a' },
      { type: 'session', sessionId: SID },
      { type: 'done', sessionId: SID, timestamp: '2025-01-01T00:00:00.000Z' },
    ]);
  });

  it(
    'an `error` event throws a service failure (exit 7, whatever ' +
      'its status) with its message, after the pieces before it',
    async () => {
      const events: StreamEvent[] = [];
      const err = await (async () => {
        for await (const e of readReplyStream(
          body([
            `event: delta\ndata: {"content":"part"}\n\nevent: error\ndata: ` +
              `{"statusCode":504,"message":"Query timeout"}\n\n`,
          ]),
          { contentType: 'text/event-stream' },
        ))
          events.push(e);
      })().catch((e: unknown) => e);
      expect(textOf(events)).toBe('part');
      expect(err).toBeInstanceOf(StreamCutError);
      expect((err as StreamCutError).message).toBe('Query timeout');
      expect(exitCodeFor(err)).toBe(EXIT.service);
    },
  );

  it('an error without a status, unnamed or plain, is a service failure (exit 7)', async () => {
    for (const chunk of [
      'data: {"error":{"message":"upstream died","type":"server_error"}}\n\n',
      'event: error\ndata: boom\n\n',
    ]) {
      const err = await collect([chunk]).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StreamCutError);
      expect(exitCodeFor(err)).toBe(7);
      expect((err as Error).message).toMatch(/upstream died|boom/);
    }
  });
});

describe('readReplyStream: the dialects and lenient reading the client promises', () => {
  it.each(['content', 'delta', 'text', 'token'])('unnamed events with the text in `%s`', async (field) => {
    const events = await collect([`data: {"${field}":"one "}\n\ndata: {"${field}":"two"}\n\n`]);
    expect(textOf(events)).toBe('one two');
    expect(doneText(events)).toBe('one two');
  });

  it('OpenAI-style chunks and a `data: [DONE]` terminator; nothing after [DONE] counts', async () => {
    const events = await collect([
      'data: {"choices":[{"delta":{"content":"Hi"}}]}\n\n',
      'data: {"choices":[{"delta":{"content":" there"}}]}\n\n',
      'data: [DONE]\n\n',
      'data: {"content":"ignored"}\n\n',
    ]);
    expect(textOf(events)).toBe('Hi there');
    expect(doneText(events)).toBe('Hi there');
  });

  it('plain-text data, with its leading spaces, and JSON strings', async () => {
    const events = await collect(['data: Hello\n\ndata:  world\n\ndata: "!"\n\n']);
    expect(textOf(events)).toBe('Hello world!');
  });

  it('multi-line data joins with a newline', async () => {
    expect(textOf(await collect(['data: line one\ndata: line two\n\n']))).toBe('line one\nline two');
  });

  it('CRLF and lone CR line endings', async () => {
    const crlf = ours(['a', 'b']).replace(/\n/g, '\r\n');
    expect(textOf(await collect([crlf]))).toBe('ab');
    const cr = ours(['c', 'd']).replace(/\n/g, '\r');
    expect(textOf(await collect([cr]))).toBe('cd');
  });

  it('a stream that simply ends is done, and a last event without its blank line still counts', async () => {
    const events = await collect([
      `event: session\ndata: {"session_id":"${SID}"}\n\ndata: {"content":"x"}\n\ndata: {"content":"y"}`,
    ]);
    expect(events).toEqual([
      { type: 'session', sessionId: SID },
      { type: 'text', text: 'x' },
      { type: 'text', text: 'y' },
      { type: 'done', sessionId: SID },
    ]);
  });

  it(
    'a last event cut part-way through its JSON is a reply cut ' +
      'short (exit 7), not text; what came before is given',
    async () => {
      const events: StreamEvent[] = [];
      const read = (async () => {
        for await (const e of readReplyStream(
          body([`data: {"event":"RunContent","content":"kept"}\n\ndata: {"event":"RunCont`]),
          { contentType: 'text/event-stream' },
        ))
          events.push(e);
      })();
      await expect(read).rejects.toThrow('the reply was cut short (its last event ended part-way)');
      expect(textOf(events)).toBe('kept');
      // a last event of plain text (not JSON) still counts, as above
      expect(textOf(await collect(['data: {"content":"x"}\n\ndata: plain end']))).toBe('xplain end');
    },
  );

  it('a UTF-8 character split between chunks, byte by byte', async () => {
    const bytes = new TextEncoder().encode(ours(['né', '🚀', '日本']));
    const chunks = Array.from(bytes, (b) => Uint8Array.of(b));
    const events = await collect(chunks);
    expect(textOf(events)).toBe('né🚀日本');
    expect(doneText(events)).toBe('né🚀日本');
  });

  it('a byte-order mark before the stream is no part of it, whole or split inside the mark', async () => {
    // with the mark taken for part of the first line, `data` would be an unknown field and `bom ` lost
    const bytes = new Uint8Array([
      0xef,
      0xbb,
      0xbf,
      ...new TextEncoder().encode('data: {"content":"bom "}\n\ndata: {"content":"less"}\n\n'),
    ]);
    for (const chunks of [[bytes], [bytes.subarray(0, 1), bytes.subarray(1, 2), bytes.subarray(2)]]) {
      expect(doneText(await collect(chunks))).toBe('bom less');
    }
    // only the stream's first character: a mark later on is text like any other
    expect(textOf(await collect(['data: a\n\n', 'data: \ufeffb\n\n']))).toBe('a\ufeffb');
  });

  it('text, a tool call and text in one chunk: the pieces on each side of the call stay there', async () => {
    const piece = (content: string) => `data: ${JSON.stringify({ event: 'RunContent', session_id: SID, content })}\n\n`;
    const started = { event: 'ToolCallStarted', session_id: SID, tool: { tool_call_id: 't1', tool_name: 'get_price' } };
    const tool = `data: ${JSON.stringify(started)}\n\n`;
    const events = await collect([piece('Let me ') + piece('check. ') + tool + piece('BTC is ') + piece('up.')]);
    expect(
      events.map((e) => (e.type === 'tool' ? `tool:${e.call.name}` : e.type === 'text' ? e.text : e.type)),
    ).toEqual(['session', 'Let me check. ', 'tool:get_price', 'BTC is up.', 'done']);
    expect(doneText(events)).toBe('Let me check. BTC is up.');
  });

  it('a session id carried on unnamed events is reported once', async () => {
    const events = await collect([
      `data: {"session_id":"${SID}","content":"a"}\n\ndata: {"session_id":"${SID}","content":"b"}\n\n`,
    ]);
    expect(events.filter((e) => e.type === 'session')).toEqual([{ type: 'session', sessionId: SID }]);
    expect(textOf(events)).toBe('ab');
  });

  it('a JSON body (stream ignored by the service) becomes session, text and done', async () => {
    const events = await collect(
      [`{"session_id":"${SID}",`, '"content":"whole reply"}'],
      'application/json; charset=utf-8',
    );
    expect(events).toEqual([
      { type: 'session', sessionId: SID },
      { type: 'text', text: 'whole reply' },
      { type: 'done', sessionId: SID },
    ]);
    expect(() => replyFromJson({ content: '' })).toThrow(NO_TEXT);
  });

  it('a plain-text body: every chunk is a piece', async () => {
    const events = await collect(['Hello ', 'there'], 'text/plain; charset=utf-8');
    expect(events).toEqual([{ type: 'text', text: 'Hello ' }, { type: 'text', text: 'there' }, { type: 'done' }]);
  });
});

describe('readReplyStream: breaks and Ctrl-C', () => {
  it('a connection cut mid-stream: the pieces so far, then a service error (exit 7)', async () => {
    // what node:http's IncomingMessage throws when the connection drops mid-body
    const cut = Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
    const events: StreamEvent[] = [];
    const err = await (async () => {
      for await (const e of readReplyStream(body(['event: delta\ndata: {"content":"kept"}\n\n'], cut), {
        contentType: 'text/event-stream',
      }))
        events.push(e);
    })().catch((e: unknown) => e);
    expect(textOf(events)).toBe('kept');
    expect(err).toBeInstanceOf(StreamCutError);
    expect(exitCodeFor(err)).toBe(7);
    expect((err as Error).message).toBe('the reply was cut short (aborted)');
  });

  it('aborting the signal destroys the body and ends with InterruptedError', async () => {
    const controller = new AbortController();
    let release!: () => void;
    const waiting = new Promise<void>((r) => (release = r));
    const b = Object.assign(
      (async function* () {
        yield new TextEncoder().encode('data: {"content":"a"}\n\n');
        await waiting;
        throw new Error('destroyed');
      })(),
      {
        destroyedWith: undefined as Error | undefined,
        destroy(err?: Error) {
          this.destroyedWith ??= err;
          release();
        },
      },
    );
    const seen: string[] = [];
    const err = await (async () => {
      for await (const e of readReplyStream(b, { contentType: 'text/event-stream', signal: controller.signal })) {
        if (e.type === 'text') {
          seen.push(e.text);
          controller.abort();
        }
      }
    })().catch((e: unknown) => e);
    expect(seen).toEqual(['a']);
    expect(err).toBeInstanceOf(InterruptedError);
    expect(b.destroyedWith).toBeInstanceOf(InterruptedError);
  });

  it('stops reading at done and lets the body go', async () => {
    const b = body([ours(['x']), 'data: {"content":"after"}\n\n']);
    const events: StreamEvent[] = [];
    for await (const e of readReplyStream(b, { contentType: 'text/event-stream' })) events.push(e);
    expect(textOf(events)).toBe('x');
    expect(b.destroyCalls).toEqual([undefined]); // dropped, without an error
  });
});

// ---------------------------------------------------------------------------------------------
// Property: any split of the same bytes gives the same text

type Format = 'ours' | 'unnamed' | 'plain';

function encode(pieces: string[], format: Format, crlf: boolean, terminator: 'done' | '[DONE]' | 'none'): string {
  const lines: string[] = [];
  if (format === 'ours') lines.push(`event: session\ndata: {"session_id":"${SID}"}\n\n`);
  const fields = ['content', 'delta', 'text', 'token'];
  pieces.forEach((p, i) => {
    if (format === 'ours') lines.push(`event: delta\ndata: ${JSON.stringify({ content: p })}\n\n`);
    else if (format === 'unnamed') lines.push(`data: ${JSON.stringify({ [fields[i % 4]!]: p })}\n\n`);
    else
      lines.push(
        `${p
          .split('\n')
          .map((l) => `data: ${l}`)
          .join('\n')}\n\n`,
      );
  });
  if (terminator === 'done')
    lines.push(`event: done\ndata: ${JSON.stringify({ session_id: SID, content: pieces.join('') })}\n\n`);
  if (terminator === '[DONE]') lines.push('data: [DONE]\n\n');
  const text = lines.join('');
  return crlf ? text.replace(/\n/g, '\r\n') : text;
}

function mergeTexts(events: StreamEvent[]): StreamEvent[] {
  const out: StreamEvent[] = [];
  for (const e of events) {
    const last = out.at(-1);
    if (e.type === 'text' && last?.type === 'text') out[out.length - 1] = { type: 'text', text: last.text + e.text };
    else out.push(e);
  }
  return out;
}

const splitAt = (bytes: Uint8Array, cuts: number[]): Uint8Array[] => cutAt(bytes, cuts);

const anyText = fc.string({ unit: 'binary', maxLength: 12 });
/** plain-text data can hold neither CR, a leading `{`/`"` (read as JSON) nor `[DONE]`; LF splits data lines */
const plainText = fc
  .string({ unit: 'binary', maxLength: 12 })
  .map((s) => s.replace(/\r/g, ''))
  .filter((s) => !/^\s*[{"]/.test(s) && s.trim() !== '[DONE]' && !s.split('\n').some((l) => /^\s*[{"]/.test(l)));

describe('readReplyStream: property', () => {
  it('any split of the same stream (inside lines, CRLF pairs, UTF-8 characters) gives the same text', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<Format>('ours', 'unnamed'),
        fc.array(anyText, { maxLength: 12 }),
        fc.boolean(),
        fc.constantFrom<'done' | '[DONE]' | 'none'>('done', '[DONE]', 'none'),
        fc.array(fc.nat(), { maxLength: 30 }),
        async (format, pieces, crlf, terminator, cuts) => {
          const bytes = new TextEncoder().encode(encode(pieces, format, crlf, terminator));
          const expected = pieces.join('');
          // a reply without a word is the service's failure, however it was split
          if (!/\S/.test(expected)) return void (await expect(collect(splitAt(bytes, cuts))).rejects.toThrow(NO_TEXT));
          const events = await collect(splitAt(bytes, cuts));
          expect(textOf(events)).toBe(expected);
          expect(doneText(events)).toBe(expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('plain-text data: any split gives the same text', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(plainText, { maxLength: 10 }),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 30 }),
        async (pieces, crlf, cuts) => {
          const bytes = new TextEncoder().encode(encode(pieces, 'plain', crlf, 'none'));
          if (!/\S/.test(pieces.join('')))
            return void (await expect(collect(splitAt(bytes, cuts))).rejects.toThrow(NO_TEXT));
          const events = await collect(splitAt(bytes, cuts));
          // SSE drops an empty event (a piece that is '' carries no data)
          expect(textOf(events)).toBe(pieces.join(''));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('the decoder alone: feeding byte by byte equals feeding the whole', () => {
    fc.assert(
      fc.property(fc.array(anyText, { maxLength: 8 }), (pieces) => {
        const bytes = new TextEncoder().encode(encode(pieces, 'ours', false, 'done'));
        const whole = new SseDecoder();
        const a = [...whole.push(bytes), ...whole.end()];
        const byByte = new SseDecoder();
        const b = [...Array.from(bytes, (x) => byByte.push(Uint8Array.of(x))).flat(), ...byByte.end()];
        // the same events once pieces that arrived together are counted as arriving apart
        expect(mergeTexts(b)).toEqual(mergeTexts(a));
        expect(b.filter((e) => e.type !== 'text')).toEqual(a.filter((e) => e.type !== 'text'));
      }),
    );
  });
});
