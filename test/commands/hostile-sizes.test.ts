// No limit on what the service can send: a name of many
// megabytes, an SSE event that never ends its line, a JSON answer that never ends. Each is cut off
// at a bounded size (exit 7, one line) or shown from a bounded prefix, never read until the heap dies.
import type http from 'node:http';
import { describe, expect, it } from 'vitest';
import { runLine } from '../helpers/context.js';
import { AGENT_ID, hostileServices } from '../helpers/hostile-service.js';

const MiB = 1024 * 1024;
const h = hostileServices();

/**
 * Writes `head`, then 1 MiB pieces of `fill` (each once the last one went out) until the client
 * hangs up or `max` bytes went out, then holds the connection open. `sent()`: the bytes that went out.
 */
function endless(type: string, head: string, fill: string, max = 48 * MiB) {
  let sent = 0;
  const handler = (_req: http.IncomingMessage, res: http.ServerResponse) => {
    res.writeHead(200, { 'content-type': type });
    res.write(head);
    const piece = fill.repeat(MiB / fill.length);
    const next = () => {
      if (res.destroyed || sent >= max) return;
      res.write(piece, (err) => {
        if (err) return;
        sent += piece.length;
        next();
      });
    };
    next();
  };
  return { handler, sent: () => sent };
}

describe('a JSON answer is read up to 16 MiB', () => {
  it('one that never ends: exit 7 in one line, the connection dropped after 16 MiB', async () => {
    const body = endless('application/json', '{"agents": [', ' ');
    const target = await h.serve({ 'GET /v1/superagents': body.handler });
    const r = await runLine(target, ['list', '--timeout', '20']);
    expect(body.sent()).toBeLessThan(24 * MiB); // 16 MiB, and what was on its way
    expect(r).toMatchObject({ code: 7, stdout: '' });
    expect(r.stderr).toMatch(/^Error: the service sent an answer larger than 16 MiB \([^\n]*\)\n$/);
  });
});

describe('a streamed event is read up to 4 MiB', () => {
  it('data that never ends its line: exit 7 in one line, the text before it kept, the connection dropped', async () => {
    const first = `data: ${JSON.stringify({ event: 'RunContent', content: 'before' })}\n\n`;
    const body = endless('text/event-stream', `${first}data: {"event":"RunContent","content":"`, 'x');
    const target = await h.serve({ [`POST /v1/superagents/${AGENT_ID}/chat`]: body.handler });
    const r = await runLine(target, ['chat', AGENT_ID, 'hi', '--timeout', '20']);
    expect(body.sent()).toBeLessThan(12 * MiB);
    expect(r).toMatchObject({ code: 7, stdout: 'before\n' });
    expect(r.stderr).toMatch(/^Error: the service sent an event larger than 4 MiB \([^\n]*\)\n$/);
  });

  it('many data lines that never end the event: the same', async () => {
    const body = endless('text/event-stream', '', `data: ${'x'.repeat(1017)}\n`); // 1 KiB lines
    const target = await h.serve({ [`POST /v1/superagents/${AGENT_ID}/chat`]: body.handler });
    const r = await runLine(target, ['chat', AGENT_ID, 'hi', '--timeout', '20']);
    expect(body.sent()).toBeLessThan(12 * MiB);
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/^Error: the service sent an event larger than 4 MiB/);
  });
});

describe('a completion event past 4 MiB (Agno’s RunCompleted repeats the whole reply)', () => {
  const completed = (event: string) => `data: {"event":"${event}","session_id":"s-1","content":"`;

  it.each(['RunCompleted', 'stream_complete'])(
    '%s after the text: the reply is done there (exit 0), its content not read',
    async (event) => {
      const first = `data: ${JSON.stringify({ event: 'RunContent', content: 'the reply' })}\n\n`;
      const body = endless('text/event-stream', `${first}${completed(event)}`, 'x');
      const target = await h.serve({ [`POST /v1/superagents/${AGENT_ID}/chat`]: body.handler });
      const r = await runLine(target, ['chat', AGENT_ID, 'hi', '--timeout', '20']);
      expect(r, r.stderr).toMatchObject({ code: 0, stdout: 'the reply\n', stderr: '' });
      expect(body.sent()).toBeLessThan(12 * MiB);
    },
  );

  it('with no text before it, its content would be the reply: too large to read, exit 7 as before', async () => {
    const body = endless('text/event-stream', completed('RunCompleted'), 'x');
    const target = await h.serve({ [`POST /v1/superagents/${AGENT_ID}/chat`]: body.handler });
    const r = await runLine(target, ['chat', AGENT_ID, 'hi', '--timeout', '20']);
    expect(r).toMatchObject({ code: 7, stdout: '' });
    expect(r.stderr).toMatch(/^Error: the service sent an event larger than 4 MiB/);
  });
});

describe('a name of megabytes', () => {
  const name = `${'n'.repeat(12 * MiB)}END`;
  const routes = {
    'GET /v1/superagents': {
      body: { agents: [{ agent_id: AGENT_ID, name, status: 'running', model: 'gpt-4o', created_at: null }] },
    },
  };

  it('on a terminal, list shows it cut to the table', async () => {
    const r = await runLine(await h.serve(routes), ['list'], { tty: { stdout: true, stderr: true, columns: 100 } });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^n+… {2}a1b2c3d4 {2}running {2}gpt-4o$/);
    expect(lines[1]!.length).toBeLessThan(100);
  });

  it('piped, list gives it whole (scripts get the data)', async () => {
    const r = await runLine(await h.serve(routes), ['list']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${AGENT_ID}\t${name}\trunning\tgpt-4o\t\n`);
  });
});
