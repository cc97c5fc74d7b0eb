// The baseline for bench/stream-throughput.js: the same streamed chat with bare node:http, the body
// written to stdout as it comes (what curl -sN does): what any Node client pays before it does
// anything with the stream.
import http from 'node:http';

const [url, message] = process.argv.slice(2);
const req = http.request(url, { method: 'POST', headers: { authorization: `Bearer ${process.env.SUPERAGENT_API_KEY}`, 'content-type': 'application/json' } }, (res) => {
  res.on('data', (chunk) => process.stdout.write(chunk));
});
req.on('error', (e) => {
  console.error(e.message);
  process.exitCode = 7;
});
req.end(JSON.stringify({ message, stream: true }));
