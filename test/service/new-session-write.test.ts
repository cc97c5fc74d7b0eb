// A new session is written beside its stream's first pieces, not before them (its write and fsync
// were most of the wait for a reply's first byte), and the reply completes only once it is written:
// a failed write ends the stream with an error event, and a client gone meanwhile still leaves it written.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { accountId, hashKey } from '../../src/server/auth.js';
import { CUT_STREAM_MESSAGE } from '../../src/server/faults.js';
import { Store } from '../../src/server/index.js';
import { streamReply } from '../../src/server/sse.js';
import { SessionFiles } from '../../src/server/store/session-files.js';
import { eventNames, parseWire } from '../helpers/service-support.js';
import { agentPath, chat, KEY_A, launch, useServicePerTest } from '../helpers/superagent-fixtures.js';

const MESSAGE = 'What is BTC doing today?';

/** Every SessionFiles.create waits for `open()` (or fails with `fail()`); `writes` are the calls made. */
function holdSessionWrites() {
  const original = SessionFiles.prototype.create;
  let release!: () => void;
  let refuse!: (err: Error) => void;
  const gate = new Promise<void>((resolve, reject) => {
    release = resolve;
    refuse = reject;
  });
  gate.catch(() => undefined);
  const writes: Promise<void>[] = [];
  vi.spyOn(SessionFiles.prototype, 'create').mockImplementation(function (this: SessionFiles, ...args) {
    const write = gate.then(() => original.apply(this, args));
    writes.push(write);
    return write;
  });
  return { writes, open: () => release(), fail: (err: Error) => refuse(err) };
}

/** A streamed chat read as it arrives: `until(re)` resolves once the text so far matches. */
function openStream(url: string, id: string) {
  let text = '';
  let ended = false;
  const waiters: Array<() => void> = [];
  const wake = () => waiters.splice(0).forEach((w) => w());
  const payload = JSON.stringify({ message: MESSAGE, stream: true });
  const req = http.request(`${url}${agentPath(id, '/chat')}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${KEY_A}`,
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(payload),
    },
  });
  req.on('response', (res) => {
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      text += chunk;
      wake();
    });
    res.on('error', () => undefined);
    res.on('close', () => {
      ended = true;
      wake();
    });
  });
  req.on('error', () => undefined);
  req.end(payload);
  const until = async (done: () => boolean): Promise<string> => {
    while (!done()) {
      if (ended) throw new Error(`the stream ended before it was expected to: ${text.slice(-300)}`);
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
    return text;
  };
  return {
    /** the text so far, once it matches `re` */
    until: (re: RegExp) => until(() => re.test(text)),
    /** the whole body, once the response is over */
    end: () => until(() => ended),
    abort: () => req.destroy(),
  };
}

const sessionIdIn = (wire: string) => /"event":"session_info","session_id":"([^"]+)"/.exec(wire)![1]!;

describe('a new session is written beside its first pieces', () => {
  const svc = useServicePerTest();

  /** A new agent's streamed reply with its session write held, read up to its first piece. */
  async function heldAtFirstPiece(name: string) {
    const { agent_id } = await launch(svc(), { name });
    const held = holdSessionWrites();
    const stream = openStream(svc().url, agent_id);
    const wire = await stream.until(/"event":"RunContent"/);
    return { agent_id, held, stream, id: sessionIdIn(wire) };
  }

  it('the pieces go out while the session is being written; the reply completes only once it is written', async () => {
    const { agent_id } = await launch(svc(), { name: 'Quick' });
    const held = holdSessionWrites();
    const stream = openStream(svc().url, agent_id);
    // every piece, while the write is held (no token delay: they all go out at once)
    const before = await stream.until(/"event":"RunContent"/);
    expect(held.writes).toHaveLength(1);
    expect(before).not.toMatch(/RunCompleted|\[DONE\]/);
    held.open();
    const wire = await stream.end();
    expect(eventNames(parseWire(wire).events).slice(-2)).toEqual(['RunCompleted', 'stream_complete']);
    expect(wire.endsWith('data: [DONE]\n\n')).toBe(true);
    // written: the session continues
    const next = await chat(svc(), agent_id, { message: MESSAGE, session_id: sessionIdIn(wire) });
    expect(next.status, next.text).toBe(200);
  });

  it('a write that fails ends the stream with an error event after the pieces, never RunCompleted', async () => {
    const { agent_id, held, stream } = await heldAtFirstPiece('Unlucky');
    held.fail(new Error('ENOSPC: no space left on device'));
    const wire = await stream.end();
    const events = parseWire(wire).events;
    expect(eventNames(events)).toContain('RunContent');
    expect(events.at(-1)).toEqual({ event: 'error', message: 'Internal server error', statusCode: 500 });
    expect(wire).not.toMatch(/RunCompleted|\[DONE\]/);
    // nothing was written: the session the stream named is not there
    const next = await chat(svc(), agent_id, { message: MESSAGE, session_id: sessionIdIn(wire) });
    expect(next.status).toBe(404);
  });

  it('a client gone before the write ends still leaves the session written', async () => {
    const { agent_id, held, stream, id } = await heldAtFirstPiece('Impatient');
    stream.abort();
    held.open();
    await Promise.all(held.writes);
    const next = await chat(svc(), agent_id, { message: MESSAGE, session_id: id });
    expect(next.status, next.text).toBe(200);
  });

  it(
    'close() waits for a session write under way: a client ' + 'that saw the id finds the session after a restart',
    async () => {
      const { held, id } = await heldAtFirstPiece('Stopped');
      let closed = false;
      const closing = svc()
        .close()
        .then(() => (closed = true));
      // the connections are gone within a few turns of the event loop; the write is still held
      for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
      expect(closed).toBe(false);
      held.open();
      await closing;
      const store = new Store(svc().dataDir).open();
      expect(store.sessions.get(accountId(hashKey(KEY_A)), id)?.record.session_id).toBe(id);
    },
  );

  it(
    'an agent destroyed while its reply streams: the new ' + 'session is not written, and the stream ends with 404',
    async () => {
      const { agent_id, held, stream, id } = await heldAtFirstPiece('Doomed');
      expect((await svc().call('DELETE', agentPath(agent_id))).status).toBe(200);
      held.open();
      const wire = await stream.end();
      expect(parseWire(wire).events.at(-1)).toEqual({ event: 'error', message: 'Agent not found', statusCode: 404 });
      const store = new Store(svc().dataDir).open();
      expect(store.sessions.get(accountId(hashKey(KEY_A)), id)).toBeUndefined();
    },
  );

  it('without streaming, the session is written before the answer, and a failed write is an HTTP 500', async () => {
    const { agent_id } = await launch(svc(), { name: 'Plain' });
    const held = holdSessionWrites();
    held.fail(new Error('EIO: i/o error'));
    const res = await chat(svc(), agent_id, { message: MESSAGE });
    expect(res.status).toBe(500);
    expect(held.writes).toHaveLength(1);
  });
});

describe('a new session write that fails while the pieces still stream (a token delay)', () => {
  const logged: string[] = [];
  const svc = useServicePerTest({ tokenDelayMs: 2, log: (line) => logged.push(line) });

  it('ends the stream with an error event, is logged, and the service goes on', async () => {
    const { agent_id } = await launch(svc(), { name: 'Slow and unlucky' });
    const held = holdSessionWrites();
    held.fail(new Error('ENOSPC: no space left on device'));
    const stream = openStream(svc().url, agent_id);
    const wire = await stream.end();
    expect(parseWire(wire).events.at(-1)).toEqual({
      event: 'error',
      message: 'Internal server error',
      statusCode: 500,
    });
    expect(wire).not.toMatch(/RunCompleted|\[DONE\]/);
    expect(logged.join('\n')).toContain('ENOSPC: no space left on device');
    vi.restoreAllMocks();
    expect((await chat(svc(), agent_id, { message: MESSAGE })).status).toBe(200);
  });
});

describe('a failed new session write when the stream has ended already', () => {
  const logged: string[] = [];
  // a token delay: the write has failed before the cut, whose connection is dropped only once its last piece has left
  const svc = useServicePerTest({ tokenDelayMs: 2, faults: { cutStreamAfter: 3 }, log: (line) => logged.push(line) });
  const failures = () => logged.filter((line) => line.includes('ENOSPC')).length;
  beforeEach(() => {
    logged.length = 0;
  });

  it('a stream cut by a fault ends with its one error event; the failed write is logged, not sent', async () => {
    const { agent_id } = await launch(svc(), { name: 'Cut' });
    holdSessionWrites().fail(new Error('ENOSPC: no space left on device'));
    const wire = await openStream(svc().url, agent_id).end();
    expect(parseWire(wire).events.filter((e) => e.event === 'error')).toEqual([
      { event: 'error', message: CUT_STREAM_MESSAGE, statusCode: 502 },
    ]);
    // the cut drops the connection before the failure is seen: logged once it is
    await svc().close();
    expect(failures()).toBe(1);
  });

  it('close() resolves once a write that fails meanwhile is logged', async () => {
    const { agent_id } = await launch(svc(), { name: 'Closing' });
    const held = holdSessionWrites();
    const stream = openStream(svc().url, agent_id);
    await stream.until(/"event":"RunContent"/);
    const closing = svc().close();
    held.fail(new Error('ENOSPC: no space left on device'));
    await closing;
    expect(failures()).toBe(1);
  });
});

describe('streamReply', () => {
  it('a failure that stops the stream is the one reported, not a failed record beside it', async () => {
    const script = {
      head: [],
      piece: (): object => {
        throw new Error('the piece could not be made');
      },
      tail: () => [],
    };
    const outcome = new Promise<unknown>((resolve) => {
      const server = http.createServer((_req, res) => {
        const recorded = Promise.reject(new Error('ENOSPC: no space left on device'));
        streamReply(res, script, ['a'], {
          tokenDelayMs: 0,
          sleep: async () => undefined,
          pingIntervalMs: 0,
          recorded,
        }).then(resolve, resolve);
        res.on('close', () => server.close());
      });
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address() as AddressInfo;
        http
          .get(`http://127.0.0.1:${port}/`, (res) => res.resume().on('end', () => res.destroy()))
          .on('error', () => undefined);
      });
    });
    expect(await outcome).toMatchObject({ message: 'the piece could not be made' });
  });
});
