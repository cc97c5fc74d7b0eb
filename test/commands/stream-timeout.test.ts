// --timeout on a stream is the longest wait for the next piece of reply text. A
// service that keeps the connection busy with pings, blank or white-space data, or tool calls, and
// never sends text, is given up on after --timeout (exit 7, what arrived kept); one that keeps
// sending text is not cut off, however long the whole reply takes. A JSON answer must come whole.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { runLine } from '../helpers/context.js';

const ID = 'a1b2c3d4-5678-90ab-cdef-1234567890ab';
const KEY = 'gb_sk_test_0123456789abcdef';
const open: http.Server[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => new Promise<void>((r) => (s.closeAllConnections(), s.close(() => r())))));
});

/** A chat stream: some text, then `keepAlive` every 50 ms until the client goes (or `texts` more pieces). */
async function streaming(keepAlive: string, texts = 0) {
  const server = http.createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(`data: ${JSON.stringify({ event: 'RunContent', content: 'first words', session_id: 's-1' })}\n\n`);
    let sent = 0;
    const timer = setInterval(() => {
      if (texts > 0 && sent < texts)
        res.write(`data: ${JSON.stringify({ event: 'RunContent', content: ` piece ${++sent}` })}\n\n`);
      else if (texts > 0) {
        clearInterval(timer);
        res.end(`data: ${JSON.stringify({ event: 'RunCompleted' })}\n\ndata: [DONE]\n\n`);
      } else res.write(keepAlive);
    }, 50);
    res.on('close', () => clearInterval(timer));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  open.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, key: KEY };
}

/** A JSON answer to the chat that never ends: its start, then one space every 50 ms. */
async function trickling() {
  const server = http.createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"content": "never finished"');
    const timer = setInterval(() => res.write(' '), 50);
    res.on('close', () => clearInterval(timer));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  open.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, key: KEY };
}

describe('--timeout on a stream', () => {
  it.each([
    ['pings', ': ping\n\n'],
    ['blank data', 'data: \n\n'],
    ['events that carry no text', `data: ${JSON.stringify({ event: 'RunStarted' })}\n\n`],
    ['white-space data', 'data:   \n\n'],
    ['pieces of text that are only white space', `data: ${JSON.stringify({ event: 'RunContent', content: ' ' })}\n\n`],
    // a tool call shows progress but is no reply text: a service that only calls tools is given up on too
    [
      'tool calls',
      `data: ${JSON.stringify({ event: 'ToolCallStarted', tool: { tool_name: 'get_price', tool_args: {} } })}\n\n`,
    ],
  ])(
    'a stream that keeps sending %s but no text ends after --timeout: exit 7, the text kept',
    async (_what, keepAlive) => {
      const r = await runLine(await streaming(keepAlive), ['chat', ID, 'hi', '--timeout', '0.3']);
      expect(r.code).toBe(7);
      expect(r.stdout.trimEnd()).toBe('first words'); // white space sent is white space printed
      expect(r.stderr).toContain(
        'Error: no reply text within 0.3 s (what arrived is kept above; raise the limit with --timeout SECONDS)',
      );
    },
  );

  it.each([
    ['streamed', []],
    ['--no-stream', ['--no-stream']],
  ])('a JSON answer that trickles in (%s) must come whole within --timeout: exit 7', async (_how, extra) => {
    const r = await runLine(await trickling(), ['chat', ID, 'hi', '--timeout', '0.3', ...extra]);
    expect(r).toMatchObject({ code: 7, stdout: '' });
    expect(r.stderr).toMatch(/^Error: no (reply text|answer from \S+) within 0\.3 s/);
  });

  it(
    'a stream that keeps sending text is not cut off, even ' + 'when the whole reply takes longer than --timeout',
    async () => {
      // 12 × 50 ms = 600 ms in all
      const r = await runLine(await streaming('', 12), ['chat', ID, 'hi', '--timeout', '0.3']);
      expect(r.stderr).not.toContain('Error');
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(`first words${Array.from({ length: 12 }, (_, i) => ` piece ${i + 1}`).join('')}\n`);
    },
  );

  it('--help says what --timeout means for a stream', async () => {
    const help = (await runLine(undefined, ['chat', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(help).toContain('--timeout <seconds> request time-out; for a stream, the longest wait for reply text');
  });
});
