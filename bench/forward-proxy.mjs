// A bare forward proxy for bench/proxy.js, in a process of its own (the bench's timed runs block its
// own event loop): absolute-URL requests forwarded as they arrive; prints its URL, then serves.
import http from 'node:http';

let carried = 0;
const server = http.createServer((req, res) => {
  carried++;
  const up = http.request(new URL(req.url), { method: req.method, headers: req.headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  up.once('error', () => res.destroy());
  req.pipe(up);
});
server.listen(0, '127.0.0.1', () => console.log(`http://127.0.0.1:${server.address().port}`));
// how many it carried, on stderr when stopped: the bench's proof that the proxied runs went through it
process.once('SIGTERM', () => {
  process.stderr.write(`forward proxy: ${carried} requests carried\n`);
  process.exit(0);
});
