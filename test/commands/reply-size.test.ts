// What the CLI holds of a streamed reply (the reply path's memory): --json and --fields need it whole
// and hold it up to HELD_REPLY_BYTES (16 MiB, what a JSON answer may be); past it the reply fails
// with exit 7 saying so, what was held is not printed as if it were the reply, and the rest is not
// read. Replies of any length are made as they are sent (test/helpers/long-reply.ts). That a reply
// printed as it arrives is not kept at all is shown on a real process: test/e2e/reply-memory.test.ts.
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { HELD_REPLY_BYTES } from '../../src/cli/chat/held-reply.js';
import { runLine } from '../helpers/context.js';
import { AGENT_ID, hostileServices } from '../helpers/hostile-service.js';
import { LONG_REPLY_SESSION, longReply, printedDigest } from '../helpers/long-reply.js';

const MiB = 1024 * 1024;
const CHAT = `POST /v1/superagents/${AGENT_ID}/chat`;
const ASK = 'POST /v1/chat';
const h = hostileServices();

/** A reply well past the cap: the client must stop reading it soon after 16 MiB of text. */
const OVER = HELD_REPLY_BYTES + 32 * MiB;
/** the cap's worth of text, the stream's own framing around it (~10 %), and what was on its way (socket buffers) */
const READ_AT_MOST = HELD_REPLY_BYTES + 12 * MiB;

const tooLong = (option: string) => `the reply is longer than the 16 MiB ${option} holds whole`;
const hint = (option: string) => `leave out ${option} to have it printed as it arrives, at any length`;
const jsonError = (message: string) => `${JSON.stringify({ error: { message, exit_code: 7 } })}\n`;

describe('chat --json holds the reply whole, up to 16 MiB', () => {
  // its RunCompleted (the reply again) is past the 4 MiB event limit: not read
  it('a reply within it: the whole text in content', async () => {
    const size = 5 * MiB;
    const target = await h.serve({ [CHAT]: longReply(size).handler });
    const r = await runLine(target, ['chat', AGENT_ID, 'hi', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ session_id: LONG_REPLY_SESSION, tool_calls: [] });
    const printed = out.content.endsWith('\n') ? out.content : `${out.content}\n`;
    expect(crypto.createHash('sha256').update(printed).digest('hex')).toBe(printedDigest(size).sha256);
  });

  it('past it: exit 7 saying what to do; nothing printed as if it were the reply; the rest not read', async () => {
    const reply = longReply(OVER);
    const target = await h.serve({ [CHAT]: reply.handler });
    const r = await runLine(target, ['chat', AGENT_ID, 'hi', '--json']);
    expect(r.code).toBe(7);
    expect(r.stdout.length, 'characters on stdout').toBeLessThan(1000);
    expect(JSON.parse(r.stdout)).toEqual({
      content: null,
      session_id: LONG_REPLY_SESSION,
      tool_calls: [],
      error: { message: tooLong('--json'), exit_code: 7 },
    });
    const line = `${tooLong('--json')} (${hint('--json')})`;
    expect(r.stderr).toBe(`Error: ${line}\n${jsonError(line)}`);
    expect(reply.sent(), 'bytes the service sent').toBeLessThan(READ_AT_MOST);
  });
});

describe('assistant ask --fields holds the answer whole to parse it, up to 16 MiB', () => {
  it('--fields: exit 7 naming --fields, nothing on stdout', async () => {
    const reply = longReply(OVER);
    const target = await h.serve({ [ASK]: reply.handler });
    const r = await runLine(target, ['assistant', 'ask', 'top perps', '--fields', 'symbol,price']);
    expect(r.code).toBe(7);
    expect(r.stdout.length, 'characters on stdout').toBe(0);
    expect(r.stderr).toBe(`Session: ${LONG_REPLY_SESSION}\nError: ${tooLong('--fields')} (${hint('--fields')})\n`);
    expect(reply.sent(), 'bytes the service sent').toBeLessThan(READ_AT_MOST);
  });
});
