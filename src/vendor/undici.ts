// Third-party code the CLI loads only on the path that needs it. Each file under src/vendor/ is built
// into its own bundle (scripts/build.mjs), so the CLI's own bundle stays small.
// Only undici's Pool and its request method: the whole of undici costs several times more start-up.
// @ts-expect-error: deep import without types of its own; typed by the caller as undici's Pool
export { default as Pool } from 'undici/lib/dispatcher/pool.js';
// @ts-expect-error: the request method undici's index attaches to every dispatcher
export { default as request } from 'undici/lib/api/api-request.js';
