// The baseline for bench/get.js: the same GET as `superagent get <id> --json`, with bare node:http.
import http from 'node:http';

const url = new URL(`${process.env.SUPERAGENT_BASE_URL}/v1/superagents/${process.argv[2]}`);
http
  .get(
    url,
    { headers: { authorization: `Bearer ${process.env.SUPERAGENT_API_KEY}`, accept: 'application/json' } },
    (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        process.stdout.write(JSON.stringify(JSON.parse(Buffer.concat(chunks).toString()), null, 2) + '\n');
      });
    },
  )
  .on('error', (e) => {
    console.error(e.message);
    process.exitCode = 7;
  });
