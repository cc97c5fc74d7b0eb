// Hostile input to the embedded service: control characters in names and descriptions, a client that
// leaves mid-body, a body or headers that never end, too many connections. Raw sockets, small limits; no
// test measures time: a limit that does not fire leaves the socket open past the test's timeout.
import net from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { startServer, type RunningServer, type ServerOptions } from '../../src/server/index.js';
import { perTest } from '../helpers/service-support.js';
import { callService, type TestService } from '../helpers/service.js';
import { OSC52 } from '../helpers/hostile-text.js';

const resources = perTest();
const launchBody = { model: 'gpt-4o', model_provider: 'openai' };

function refused(field: string) {
  return { statusCode: 400, message: `${field} must not contain control characters`, error: 'Bad Request' };
}

async function agentCount(svc: TestService): Promise<number> {
  return (await svc.call('GET', '/v1/superagents')).json.agents.length;
}

describe('control characters in names and descriptions', () => {
  // each a name a terminal would act on: OSC 52 to the clipboard, clear screen, CSI as one C1 byte, …
  const badNames = [
    `evil${OSC52}`,
    'a\u001b[2Jb',
    'a\u009b2Jb',
    'a\u007fb',
    'a\u0000b',
    'a\rb',
    'a\nb',
    'a\tb',
    'a\u0085b',
  ];
  const badDescriptions = [`d${OSC52}`, 'a\u001b[2Jb', 'a\u009b2Jb', 'a\u007fb', 'a\rb', 'a\u0008b'];

  it("refuses them in a launched agent's name (all C0, tab and newline too) and stores nothing", async () => {
    const svc = await resources.service();
    for (const name of badNames) {
      const r = await svc.call('POST', '/v1/superagents', { body: { name, ...launchBody } });
      expect([r.status, r.json], JSON.stringify(name)).toEqual([400, refused('name')]);
    }
    expect(await agentCount(svc)).toBe(0);
  });

  it('refuses them in a description, but for tab and newline', async () => {
    const svc = await resources.service();
    for (const description of badDescriptions) {
      const r = await svc.call('POST', '/v1/superagents', { body: { name: 'ok', description, ...launchBody } });
      expect([r.status, r.json], JSON.stringify(description)).toEqual([400, refused('description')]);
    }
    expect(await agentCount(svc)).toBe(0);
    const ok = await svc.call('POST', '/v1/superagents', {
      body: { name: 'ok', description: 'line one\n\tline two', ...launchBody },
    });
    expect(ok.status).toBe(200);
    expect((await svc.call('GET', `/v1/superagents/${ok.json.agent_id}`)).json.description).toBe(
      'line one\n\tline two',
    );
  });

  it('refuses them on PUT …/profile and leaves the profile as it was', async () => {
    const svc = await resources.service();
    const id = (
      await svc.call('POST', '/v1/superagents', { body: { name: 'calm', description: 'quiet', ...launchBody } })
    ).json.agent_id;
    const byName = await svc.call('PUT', `/v1/superagents/${id}/profile`, { body: { name: `x${OSC52}` } });
    expect([byName.status, byName.json]).toEqual([400, refused('name')]);
    const byDescription = await svc.call('PUT', `/v1/superagents/${id}/profile`, {
      body: { name: 'new', description: 'a\u009b2Jb' },
    });
    expect([byDescription.status, byDescription.json]).toEqual([400, refused('description')]);
    const agent = (await svc.call('GET', `/v1/superagents/${id}`)).json;
    expect([agent.name, agent.description]).toEqual(['calm', 'quiet']);
  });

  it("refuses them in a classic agent's name and description, on create and on PATCH", async () => {
    const svc = await resources.service();
    const classic = {
      name: 'Whale Watcher',
      goal: 'Spot large wallet moves',
      instructions: 'Alert on transfers above $1M',
    };
    const badName = await svc.call('POST', '/v1/agents', { body: { ...classic, name: `w${OSC52}` } });
    expect([badName.status, badName.json]).toEqual([400, refused('name')]);
    const badDescription = await svc.call('POST', '/v1/agents', { body: { ...classic, description: 'a\u001b[2Jb' } });
    expect([badDescription.status, badDescription.json]).toEqual([400, refused('description')]);
    expect((await svc.call('GET', '/v1/agents')).json).toEqual([]);
    const id = (await svc.call('POST', '/v1/agents', { body: classic })).json.agent_id;
    const patched = await svc.call('PATCH', `/v1/agents/${id}`, { body: { name: 'a\u007fb' } });
    expect([patched.status, patched.json]).toEqual([400, refused('name')]);
    expect((await svc.call('GET', `/v1/agents/${id}`)).json.name).toBe('Whale Watcher');
  });
});

describe('control and spoofing characters in model ids, names, goals and instructions', () => {
  // each changes what a terminal shows while showing nothing itself: right-to-left override, LRI,
  // zero-width space, word joiner, BOM, line and paragraph separators, Arabic letter mark
  const spoofs = ['U+202E', 'U+2066', 'U+200B', 'U+2060', 'U+FEFF', 'U+2028', 'U+2029', 'U+061C'];
  const spoofed = (cp: string) => `ab${String.fromCodePoint(parseInt(cp.slice(2), 16))}cd`;
  const invisible = (field: string, cp: string) => ({
    statusCode: 400,
    message: `${field} must not contain invisible or direction-changing characters (${cp})`,
    error: 'Bad Request',
  });
  const classic = {
    name: 'Whale Watcher',
    goal: 'Spot large wallet moves',
    instructions: 'Alert on transfers above $1M',
  };

  it(
    'refuses control characters in a model id, at launch ' + 'and on PUT …/model, and keeps them out of memory.md',
    async () => {
      const svc = await resources.service();
      const launched = await svc.call('POST', '/v1/superagents', {
        body: { name: 'm', model: `gpt${OSC52}`, model_provider: 'openai' },
      });
      expect([launched.status, launched.json]).toEqual([400, refused('model')]);
      expect(await agentCount(svc)).toBe(0);
      const id = (await svc.call('POST', '/v1/superagents', { body: { name: 'm', ...launchBody } })).json.agent_id;
      const memory = (await svc.call('GET', `/v1/superagents/${id}/files`)).json.memory_md;
      for (const model of [`gpt${OSC52}`, 'gpt\u009b2J', 'gpt\nx']) {
        const put = await svc.call('PUT', `/v1/superagents/${id}/model`, { body: { model, model_provider: 'openai' } });
        expect([put.status, put.json], JSON.stringify(model)).toEqual([400, refused('model')]);
      }
      expect((await svc.call('GET', `/v1/superagents/${id}`)).json.model).toBe('gpt-4o');
      expect((await svc.call('GET', `/v1/superagents/${id}/files`)).json.memory_md).toBe(memory);
      const assistant = await svc.call('POST', '/v1/chat', {
        body: { message: 'hi', model: `gpt${OSC52}`, model_provider: 'openai' },
      });
      expect([assistant.status, assistant.json]).toEqual([400, refused('model')]);
      const classicModel = await svc.call('POST', '/v1/agents', { body: { ...classic, model: 'a\u001b[2Jb' } });
      expect([classicModel.status, classicModel.json]).toEqual([400, refused('model')]);
    },
  );

  it(
    'refuses bidi, zero-width and separator characters in ' + 'names: launch, profile, classic create and PATCH',
    async () => {
      const svc = await resources.service();
      const id = (await svc.call('POST', '/v1/superagents', { body: { name: 'calm', ...launchBody } })).json.agent_id;
      const classicId = (await svc.call('POST', '/v1/agents', { body: classic })).json.agent_id;
      for (const cp of spoofs) {
        const name = spoofed(cp);
        const answers = [
          await svc.call('POST', '/v1/superagents', { body: { name, ...launchBody } }),
          await svc.call('PUT', `/v1/superagents/${id}/profile`, { body: { name } }),
          await svc.call('POST', '/v1/agents', { body: { ...classic, name } }),
          await svc.call('PATCH', `/v1/agents/${classicId}`, { body: { name } }),
        ];
        for (const r of answers) expect([r.status, r.json], cp).toEqual([400, invisible('name', cp)]);
      }
      expect(await agentCount(svc)).toBe(1);
      expect((await svc.call('GET', `/v1/superagents/${id}`)).json.name).toBe('calm');
      expect((await svc.call('GET', '/v1/agents')).json.map((a: any) => a.name)).toEqual(['Whale Watcher']);
      // letters of right-to-left scripts are no spoof
      const hebrew = await svc.call('POST', '/v1/superagents', { body: { name: 'סוכן', ...launchBody } });
      expect(hebrew.status).toBe(200);
    },
  );

  it("refuses control characters but tab and newline in a classic agent's goal and instructions", async () => {
    const svc = await resources.service();
    for (const field of ['goal', 'instructions']) {
      const created = await svc.call('POST', '/v1/agents', { body: { ...classic, [field]: `spot ${OSC52}` } });
      expect([created.status, created.json]).toEqual([400, refused(field)]);
    }
    expect((await svc.call('GET', '/v1/agents')).json).toEqual([]);
    const id = (await svc.call('POST', '/v1/agents', { body: { ...classic, goal: 'one\n\ttwo' } })).json.agent_id;
    for (const field of ['goal', 'instructions']) {
      const patched = await svc.call('PATCH', `/v1/agents/${id}`, { body: { [field]: 'a\u001b[2Jb' } });
      expect([patched.status, patched.json]).toEqual([400, refused(field)]);
    }
    const data = (await svc.call('GET', `/v1/agents/${id}`)).json.data;
    expect([data.goal, data.instructions]).toEqual(['one\n\ttwo', classic.instructions]);
  });
});

describe('control characters in what the service quotes back', () => {
  const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

  it('keeps them out of replies and memory, whatever the soul and the message hold', async () => {
    const svc = await resources.service();
    const id = (await svc.call('POST', '/v1/superagents', { body: { name: 'calm', ...launchBody } })).json.agent_id;
    const soul = await svc.call('PUT', `/v1/superagents/${id}/soul`, {
      body: { soul_md: `# Boss${OSC52}\n\n- Never ${OSC52} use leverage.\n` },
    });
    expect(soul.status).toBe(200);
    const message = `remember that ${OSC52}I like \u009b2JSOL. Long BTC with leverage, clear\u001b[2J`;
    const reply = await svc.call('POST', `/v1/superagents/${id}/chat`, { body: { message } });
    expect(reply.status).toBe(200);
    expect(reply.json.content).toContain('52;c;'); // quoted as text, its control bytes gone
    expect(reply.json.content).not.toMatch(CONTROL);
    const again = await svc.call('POST', `/v1/superagents/${id}/chat`, {
      body: { message: 'and?', session_id: reply.json.session_id },
    });
    expect(again.json.content).not.toMatch(CONTROL);
    expect((await svc.call('GET', `/v1/superagents/${id}/files`)).json.memory_md).not.toMatch(CONTROL);
    const assistant = await svc.call('POST', '/v1/chat', {
      body: { message: `btc?${OSC52} Respond as JSON with: a\u009bb, price` },
    });
    expect(assistant.json.content).not.toMatch(CONTROL);
    expect(Object.keys(JSON.parse(assistant.json.content))).toEqual(['a\u009bb', 'price']);
  });
});

// =============================================================================================
// Raw sockets

interface RawClient {
  socket: net.Socket;
  /** everything the service sent so far */
  received(): string;
  /** resolves when the service closes the connection */
  closed: Promise<void>;
}

/**
 * A service for raw sockets, outside the conformance record: an exchange cut before its answer
 * (a client gone, Node's own 408) has no answer to check.
 */
async function rawService(options: Partial<ServerOptions> = {}): Promise<RunningServer> {
  const server = await startServer({
    dataDir: resources.scratch(),
    rateLimit: 0,
    tokenDelayMs: 0,
    log: () => undefined,
    ...options,
  });
  resources.closeAfter(server);
  return server;
}

/** A raw connection; `first` is written at once (it reaches the service with the connection). */
async function connect(svc: RunningServer, first?: string): Promise<RawClient> {
  const socket = net.connect(svc.port, svc.host);
  if (first !== undefined) socket.write(first);
  resources.closeAfter({ close: async () => void socket.destroy() });
  let data = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (data += chunk));
  socket.on('error', () => undefined); // a reset is one way the service may close it
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return { socket, received: () => data, closed };
}

function head(svc: RunningServer, lines: string[]): string {
  return ['POST /v1/chat HTTP/1.1', `Host: ${svc.host}`, `Authorization: Bearer ${svc.key}`, ...lines].join('\r\n');
}
const jsonBodyOf = (length: number) => ['Content-Type: application/json', `Content-Length: ${length}`, '', ''];

describe('a client that leaves mid-body', () => {
  it('costs one line in the log, without a stack trace', async () => {
    const lines: string[] = [];
    const svc = await rawService({ log: (line) => lines.push(line) });
    const client = await connect(svc);
    client.socket.write(head(svc, jsonBodyOf(100)) + '{"message":', () => client.socket.destroy());
    await vi.waitFor(() => expect(lines.length).toBeGreaterThan(0));
    await new Promise((r) => setImmediate(r));
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toMatch(/\n/);
    expect(lines[0]).not.toContain('    at ');
    expect(lines[0]).toContain('POST /v1/chat');
  });
});

describe('limits on slow and many connections', () => {
  it('answers 408 and closes the connection when a body stops arriving', { timeout: 5_000 }, async () => {
    const svc = await rawService({ bodyTimeoutMs: 150 });
    const client = await connect(svc);
    client.socket.write(head(svc, jsonBodyOf(100)) + '{"message":'); // then nothing
    await client.closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(client.received()).toContain('"statusCode":408');
  });

  it('answers 408 and closes the connection when the headers never end', { timeout: 5_000 }, async () => {
    const svc = await rawService({ headersTimeoutMs: 150 });
    const client = await connect(svc);
    client.socket.write('POST /v1/chat HTTP/1.1\r\nHost: x\r\n'); // then nothing
    await client.closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes a body that trickles past the whole-request limit', { timeout: 5_000 }, async () => {
    const svc = await rawService({ headersTimeoutMs: 100, requestTimeoutMs: 300, bodyTimeoutMs: 1_000 });
    const client = await connect(svc);
    client.socket.write(head(svc, jsonBodyOf(100_000)));
    const trickle = setInterval(() => client.socket.write(' '), 50); // never at rest, never done
    await client.closed;
    clearInterval(trickle);
    expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it(
    'closes a connection that sends no byte, and still answers a slow header with 408',
    { timeout: 5_000 },
    async () => {
      const svc = await rawService({ firstByteTimeoutMs: 200, headersTimeoutMs: 1_000 });
      const silent = await connect(svc);
      const slow = await connect(svc, 'POST /v1/chat HTTP/1.1\r\n'); // a first byte, then nothing
      await silent.closed;
      expect(silent.received()).toBe('');
      await slow.closed;
      expect(slow.received()).toMatch(/^HTTP\/1\.1 408 /);
    },
  );

  it(
    'reads a request that came while its event loop was held before it judges the connection silent',
    { timeout: 5_000 },
    async () => {
      const svc = await rawService({ firstByteTimeoutMs: 100 });
      const client = await connect(svc);
      await new Promise((r) => setTimeout(r, 20)); // the service has taken the connection: its timer runs
      // the request is in the socket at once; then the loop is held past the timer where a long
      // synchronous write would hold it (after the poll phase), so the timers phase comes first after it
      const answered = await new Promise<Promise<void>>((resolve) =>
        setImmediate(() => {
          const asked = askList(svc, client);
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
          resolve(asked);
        }),
      );
      await answered;
    },
  );

  it('at the cap, the oldest idle connection makes room for a new one', { timeout: 5_000 }, async () => {
    const svc = await rawService({ maxConnections: 3 });
    const idle = await connect(svc, 'GET /v1/superagents HTTP/1.1\r\n'); // headers not done: no request in progress
    const busy = await busyClient(svc);
    const served = await connect(svc);
    await askList(svc, served); // one request answered, the connection kept alive: idle, not silent
    const silent = await connect(svc);
    await idle.closed; // the oldest that has no request in progress (served is younger)
    const newcomer = await connect(svc);
    await silent.closed; // it sent nothing: it goes first, though younger than served
    await askList(svc, newcomer);
    await askList(svc, served);
    expect(busy.socket.destroyed).toBe(false);
  });

  it(
    'at the cap with every connection busy, closes the new one at once, and serves again once one goes',
    { timeout: 5_000 },
    async () => {
      const svc = await rawService({ maxConnections: 2 });
      const first = await busyClient(svc);
      await busyClient(svc);
      const third = await connect(svc);
      await third.closed;
      expect(third.received()).toBe('');
      first.socket.destroy();
      await first.closed;
      await vi.waitFor(async () =>
        expect((await callService(svc.url, 'GET', '/v1/superagents', { key: svc.key })).status).toBe(200),
      );
    },
  );

  it(
    'serves a real request while more silent sockets than the cap are held open, reconnecting when closed',
    { timeout: 10_000 },
    async () => {
      const svc = await rawService(); // the default cap (256) and time-outs
      const crowd = silentCrowd(svc, 260);
      await crowd.full; // the service has closed one of them: it is at its cap
      const r = await callService(svc.url, 'GET', '/v1/superagents', { key: svc.key });
      expect([r.status, r.json]).toEqual([200, { agents: [] }]);
      crowd.stop();
    },
  );
});

/** A connection with a request in progress: its headers read (the service said 100 Continue), its body never sent. */
async function busyClient(svc: RunningServer): Promise<RawClient> {
  const client = await connect(svc, head(svc, ['Expect: 100-continue', ...jsonBodyOf(100)]));
  await vi.waitFor(() => expect(client.received()).toMatch(/^HTTP\/1\.1 100 /));
  return client;
}

/** GET /v1/superagents on a raw connection kept alive; resolves once it is answered 200. */
async function askList(svc: RunningServer, client: RawClient): Promise<void> {
  const before = client.received().length;
  client.socket.write(`GET /v1/superagents HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${svc.key}\r\n\r\n`);
  await vi.waitFor(() => expect(client.received().slice(before)).toMatch(/^HTTP\/1\.1 200 [^]*\{"agents":\[\]\}$/));
}

/** `count` sockets that never send a byte, each opened again when the service closes it. */
function silentCrowd(svc: RunningServer, count: number): { full: Promise<void>; stop(): void } {
  let stopped = false;
  const sockets = new Set<net.Socket>();
  let full!: () => void;
  const fullPromise = new Promise<void>((resolve) => (full = resolve));
  const open = () => {
    if (stopped) return;
    const socket = net.connect(svc.port, svc.host);
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.once('close', () => {
      sockets.delete(socket);
      full();
      setImmediate(open);
    });
  };
  const stop = () => {
    stopped = true;
    for (const socket of sockets) socket.destroy();
  };
  resources.closeAfter({ close: async () => stop() });
  for (let i = 0; i < count; i++) open();
  return { full: fullPromise, stop };
}
