// Loaded only when a proxy variable applies to a request (src/api/proxy.ts), from its own bundle
// (scripts/build.mjs): a command that goes direct never loads undici.
export { EnvHttpProxyAgent } from 'undici';
