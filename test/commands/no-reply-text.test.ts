// A reply with no text is not a success: an empty stream, a
// body that is an image or bytes, a web page, a run that paused, a JSON answer whose content is not
// text: each is exit 7 in one line. What the service's dialects do carry is read: JSON without a
// Content-Type, Agno 1's `RunResponse` pieces, and structured output (content that is an object),
// printed as its JSON text.
import { describe, expect, it } from 'vitest';
import { runLine } from '../helpers/context.js';
import { AGENT_ID, hostileServices, sse, type Reply } from '../helpers/hostile-service.js';

const h = hostileServices();
const CHAT = `POST /v1/superagents/${AGENT_ID}/chat`;
const NO_TEXT =
  'Error: the service ended the reply without any text (try again; --debug shows what the service sent)\n';

async function chatWith(reply: Reply, extra: string[] = []) {
  return runLine(await h.serve({ [CHAT]: reply }), ['chat', AGENT_ID, 'hi', '--timeout', '20', ...extra]);
}

describe('a reply without text is exit 7', () => {
  it.each<[string, Reply]>([
    ['an empty event stream', { type: 'text/event-stream', body: '' }],
    [
      'a stream of events that carry no text',
      { type: 'text/event-stream', body: sse({ event: 'RunStarted' }, { event: 'RunCompleted' }, '[DONE]') },
    ],
    [
      'a stream of only white space',
      {
        type: 'text/event-stream',
        body: sse({ event: 'RunContent', content: ' \n ' }, { event: 'RunCompleted', content: ' ' }),
      },
    ],
    [
      'a stream of tool calls and no text',
      {
        type: 'text/event-stream',
        body: sse(
          { event: 'ToolCallStarted', tool: { tool_call_id: 't1', tool_name: 'get_price' } },
          { event: 'ToolCallCompleted', tool: { tool_call_id: 't1', tool_name: 'get_price', result: '1' } },
          { event: 'RunCompleted' },
        ),
      },
    ],
    ['an empty body of no type', { type: null, body: '' }],
  ])('%s', async (_what, reply) => {
    const r = await chatWith(reply);
    expect(r).toMatchObject({ code: 7, stderr: NO_TEXT });
    expect(r.stdout.trim()).toBe(''); // white space that streamed was printed as it came
  });

  it.each([
    ['content that is empty', { content: '', session_id: 's-1' }, NO_TEXT],
    ['no content', { session_id: 's-1' }, NO_TEXT],
    [
      'content that is a number',
      { content: 5 },
      "Error: the service's answer is not what the API describes: content is a " +
        'number, not text (check the base URL points at a SuperAgents service)\n',
    ],
  ])('--no-stream: a JSON answer with %s', async (_what, body, stderr) => {
    const r = await chatWith({ body }, ['--no-stream']);
    expect(r).toMatchObject({ code: 7, stdout: '', stderr });
  });
});

describe('a body that is no reply at all is exit 7', () => {
  it.each([
    ['image/png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d])],
    ['application/octet-stream', Buffer.from('data: {"content":"looks like text"}\n\n')],
  ])('a 200 of %s', async (type, body) => {
    const r = await chatWith({ type, body });
    expect(r).toMatchObject({ code: 7, stdout: '' });
    expect(r.stderr).toBe(
      `Error: the service's answer is not what the API describes: the reply came as ${type}, not as ` +
        `text/event-stream or JSON (check the base URL points at a SuperAgents service)\n`,
    );
  });

  it('a 200 web page is not printed as the reply: the base URL is not the service, as for JSON calls', async () => {
    const r = await chatWith({
      type: 'text/html; charset=utf-8',
      body: '<!doctype html><html><body>Welcome to nginx!</body></html>',
    });
    expect(r).toMatchObject({ code: 7, stdout: '' });
    expect(r.stderr).toMatch(
      new RegExp(
        String.raw`^Error: http:\/\/127\.0\.0\.1:\d+ does not look like a SuperAgents service: ` +
          String.raw`POST \/v1\/superagents\/[^ ]+\/chat answered 200 with a web page \(check the base URL[^\n]*\)\n$`,
      ),
    );
  });

  it('a run that paused for a confirmation: one line, exit 7, the text before it kept', async () => {
    const r = await chatWith({
      type: 'text/event-stream',
      body: sse(
        { event: 'RunContent', content: 'Placing the order' },
        { event: 'RunPaused', tools: [{ tool_name: 'place_order', requires_confirmation: true }] },
      ),
    });
    expect(r).toMatchObject({ code: 7, stdout: 'Placing the order\n' });
    expect(r.stderr).toBe(
      'Error: the agent paused its run to wait for a confirmation or input, which a ' +
        'chat here cannot give (the reply stopped there; what arrived is kept)\n',
    );
  });
});

describe('what the dialects carry is read', () => {
  it('JSON with no Content-Type', async () => {
    const r = await chatWith({ type: null, body: { content: 'Hello there', session_id: 's-1' } });
    expect(r).toMatchObject({ code: 0, stdout: 'Hello there\n' });
  });

  it("Agno 1's RunResponse pieces, as RunContent", async () => {
    const r = await chatWith({
      type: 'text/event-stream',
      body: sse(
        { event: 'RunResponse', content: 'Hello ' },
        { event: 'RunResponse', content: 'there' },
        { event: 'RunCompleted' },
      ),
    });
    expect(r).toMatchObject({ code: 0, stdout: 'Hello there\n', stderr: '' });
  });

  it('structured output (content that is an object) is printed as its JSON text, streamed or not', async () => {
    const signal = { ticker: 'ETH', action: 'buy', size: 0.5 };
    const streamed = await chatWith({
      type: 'text/event-stream',
      body: sse({ event: 'RunContent', content: signal }, { event: 'RunCompleted', content: signal }),
    });
    expect(streamed).toMatchObject({ code: 0, stdout: `${JSON.stringify(signal, null, 2)}\n`, stderr: '' });
    const whole = await chatWith({ body: { content: signal, session_id: 's-1' } }, ['--no-stream']);
    expect(whole).toMatchObject({ code: 0, stdout: `${JSON.stringify(signal, null, 2)}\n`, stderr: 'Session: s-1\n' });
  });
});
