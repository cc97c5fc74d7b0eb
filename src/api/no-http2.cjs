// Stands in for node:http2 inside the bundle: undici loads http2 eagerly (≈13 ms of start-up) but only
// uses it for HTTP/2 connections, which we never open; undici itself falls back to this shape when
// http2 is missing.
module.exports = { constants: {} };
