// The baseline for bench/stream-throughput.js: the same streamed chat with bare node:http, the body
// written to stdout as it comes (what curl -sN does), the pieces of one read of the socket in one
// write (node:http hands over each HTTP chunk apart): what any Node client pays before it does
// anything with the stream.
import http from 'node:http';

const [url, message] = process.argv.slice(2);
const req = http.request(
  url,
  {
    method: 'POST',
    headers: { authorization: `Bearer ${process.env.SUPERAGENT_API_KEY}`, 'content-type': 'application/json' },
  },
  (res) => {
    let held = [];
    res.on('data', (chunk) => {
      if (held.length === 0) setImmediate(() => process.stdout.write(Buffer.concat(held.splice(0))));
      held.push(chunk);
    });
  },
);
req.on('error', (e) => {
  console.error(e.message);
  process.exitCode = 7;
});
req.end(JSON.stringify({ message, stream: true }));
