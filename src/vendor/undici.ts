// Loaded only when a proxy variable applies to a request (src/api/proxy.ts), from its own bundle
// (scripts/build.mjs): a command that goes direct never loads undici. Only the parts a proxied
// request uses, not undici's entry (fetch, WebSocket, caches, mocks…): half the code to load.
import { setFlagsFromString } from 'node:v8';
import type { EnvHttpProxyAgent as Typed } from 'undici';
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';
import EnvHttpProxyAgent from 'undici/lib/dispatcher/env-http-proxy-agent.js';
import request from 'undici/lib/api/api-request.js';
import connect from 'undici/lib/api/api-connect.js';

// undici's HTTP parser is WebAssembly, compiled at the first connection: V8's background tier-up of it
// held the process ~100 ms past its last request, process.exit included (bench/README.md); its
// baseline compiler alone is fast enough for a CLI's few answers. Set only in a process that proxies,
// where it is the only WebAssembly there is.
setFlagsFromString('--liftoff-only');

// what undici's entry does for every dispatcher: request() for the call, connect() for a CONNECT tunnel
Object.assign((Dispatcher as { prototype: object }).prototype, { request, connect });

const Agent = EnvHttpProxyAgent as typeof Typed;
export { Agent as EnvHttpProxyAgent };
