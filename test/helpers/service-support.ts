// Shared by the service's e2e tests. The service's streams as they must cross the wire
// (docs/api.md, Streaming replies), read strictly: data-only SSE blocks of one `data:` line each, JSON naming
// its event in `event`, `data: [DONE]` last, and no comment but `: ping` (test/helpers/service.ts
// `parseSse` reads `event:` lines and cannot read `[DONE]`). And stopping a test service for good.
import fs from 'node:fs';
import { afterEach, expect } from 'vitest';
import { startServer, type Exchange, type ServerOptions } from '../../src/server/index.js';
import { recordExchange } from '../conformance/collect.js';
import { asTestService, startTestService, tempDir, type TestService } from './service.js';

/**
 * A file's per-test resources: the services a test starts and the temp dirs it makes are closed
 * and removed after it, whatever happens. Call once, at the top level of the test file.
 */
export function perTest() {
  const open: Array<{ close(): Promise<void> }> = [];
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
  return {
    scratch(prefix?: string): string {
      const dir = tempDir(prefix);
      dirs.push(dir);
      return dir;
    },
    async service(options: Parameters<typeof startTestService>[0] = {}): Promise<TestService> {
      const s = await startTestService(options);
      open.push(s);
      dirs.push(s.dataDir);
      return s;
    },
    /** startTestServiceOn, closed after the test (the data dir is the earlier service's) */
    async serviceOn(dataDir: string, options: Partial<ServerOptions> = {}): Promise<TestService> {
      const s = await startTestServiceOn(dataDir, options);
      open.push(s);
      return s;
    },
    closeAfter(closable: { close(): Promise<void> }): void {
      open.push(closable);
    },
  };
}

/**
 * A service on the data dir of an earlier one (a restart, or another process's view). Not through
 * startTestService, which makes a temp dir of its own even when given one and leaves it behind;
 * the exchanges are recorded for the conformance check all the same.
 */
export async function startTestServiceOn(dataDir: string, options: Partial<ServerOptions> = {}): Promise<TestService> {
  const exchanges: Exchange[] = [];
  const onExchange = (e: Exchange) => {
    exchanges.push(e);
    recordExchange(e);
  };
  const server = await startServer({
    rateLimit: 0,
    tokenDelayMs: 0,
    log: () => undefined,
    ...options,
    dataDir,
    onExchange,
  });
  return asTestService(server, exchanges);
}

/** Closes a test service and removes its data dir. */
export async function stopService(service: TestService | undefined): Promise<void> {
  if (!service) return;
  await service.close();
  fs.rmSync(service.dataDir, { recursive: true, force: true });
}

export interface Wire {
  /** every JSON event, in order */
  events: any[];
  /** the stream ended with `data: [DONE]` */
  done: boolean;
  pings: number;
}

export function parseWire(text: string): Wire {
  const wire: Wire = { events: [], done: false, pings: 0 };
  // a stream cut mid-block leaves a partial last block; only whole blocks count
  const blocks = text.split('\n\n');
  blocks.pop();
  for (const block of blocks) {
    if (block === ': ping') {
      wire.pings++;
      continue;
    }
    if (wire.done) throw new Error(`a block after [DONE]: ${block}`);
    if (!block.startsWith('data: ') || block.includes('\n'))
      throw new Error(`not one data-only line: ${JSON.stringify(block)}`);
    const data = block.slice('data: '.length);
    if (data === '[DONE]') {
      wire.done = true;
      continue;
    }
    const event = JSON.parse(data);
    if (typeof event?.event !== 'string' || Object.keys(event)[0] !== 'event')
      throw new Error(`no leading event field: ${data}`);
    wire.events.push(event);
  }
  return wire;
}

/** The event names, in order. */
export const eventNames = (events: any[]) => events.map((e) => e.event as string);

export interface AgentStream {
  sessionId: string;
  runId: string;
  content: string;
  pieces: string[];
  /** ToolCallCompleted `tool` objects, in order */
  tools: any[];
  wire: Wire;
}

/**
 * Checks a complete agent-chat stream event by event: session_info → RunStarted → (ToolCallStarted,
 * ToolCallCompleted)* → RunContent+ → RunCompleted (the whole reply) → stream_complete → [DONE].
 */
export function expectAgentStream(text: string, agent: { agent_id: string; model: string }): AgentStream {
  const wire = parseWire(text);
  expect(wire.done).toBe(true);
  const [session, started, ...rest] = wire.events;
  const sessionId = session.session_id;
  expect(session).toEqual({ event: 'session_info', session_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
  const runId = started.run_id;
  expect(started).toEqual({
    event: 'RunStarted',
    run_id: expect.any(String),
    session_id: sessionId,
    agent_id: agent.agent_id,
    model: agent.model,
  });
  const ids = { run_id: runId, session_id: sessionId };

  const tools: any[] = [];
  while (rest[0]?.event === 'ToolCallStarted') {
    const [call, completed] = rest.splice(0, 2);
    expect(Object.keys(call.tool).sort()).toEqual(['tool_args', 'tool_call_id', 'tool_name']);
    expect(call).toEqual({ event: 'ToolCallStarted', ...ids, tool: call.tool });
    expect(call.tool.tool_call_id).toMatch(/^call_[0-9a-f]{24}$/);
    const args = Object.entries(call.tool.tool_args)
      .map(([k, v]) => `${k}=${v}`)
      .join(', ');
    const duration = completed?.tool?.metrics?.duration;
    expect(typeof duration).toBe('number');
    expect(completed).toEqual({
      event: 'ToolCallCompleted',
      ...ids,
      content: `${call.tool.tool_name}(${args}) completed in ${duration.toFixed(2)}s.`,
      tool: { ...call.tool, result: expect.any(String), tool_call_error: false, metrics: { duration } },
    });
    JSON.parse(completed.tool.result); // a JSON text
    tools.push(completed.tool);
  }

  const end = rest.splice(-2);
  expect(rest.length).toBeGreaterThan(1);
  for (const piece of rest) expect(piece).toEqual({ event: 'RunContent', ...ids, content: expect.any(String) });
  const pieces = rest.map((e) => e.content as string);
  const content = pieces.join('');
  expect(end).toEqual([
    { event: 'RunCompleted', ...ids, content },
    { event: 'stream_complete', session_id: sessionId },
  ]);
  return { sessionId, runId, content, pieces, tools, wire };
}

/**
 * Checks a complete assistant stream: session_info → RunResponseContent+ → RunCompleted {content, timestamp} → [DONE].
 */
export function expectAssistantStream(text: string): {
  sessionId: string;
  content: string;
  timestamp: string;
  wire: Wire;
} {
  const wire = parseWire(text);
  expect(wire.done).toBe(true);
  const [session, ...rest] = wire.events;
  const sessionId = session.session_id;
  expect(session).toEqual({ event: 'session_info', session_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
  const completed = rest.pop();
  expect(rest.length).toBeGreaterThan(1);
  for (const piece of rest)
    expect(piece).toEqual({ event: 'RunResponseContent', session_id: sessionId, content: expect.any(String) });
  const content = rest.map((e) => e.content as string).join('');
  expect(completed).toEqual({
    event: 'RunCompleted',
    session_id: sessionId,
    content,
    timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/),
  });
  return { sessionId, content, timestamp: completed.timestamp, wire };
}

/** The events of a stream that failed: what came before, and the one `error` event that ended it. */
export function splitAtError(wire: Wire): { before: any[]; error: any } {
  expect(wire.done).toBe(false);
  const errors = wire.events.filter((e) => e.event === 'error');
  expect(errors).toHaveLength(1);
  expect(wire.events.at(-1)).toBe(errors[0]);
  expect(Object.keys(errors[0])).toEqual(['event', 'message', 'statusCode']);
  return { before: wire.events.slice(0, -1), error: errors[0] };
}
