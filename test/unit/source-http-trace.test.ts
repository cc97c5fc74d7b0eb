// --debug traces of the money sources: a request line names the host, and the path only when it is one
// of the known public ones (an RPC provider may keep its key in the path).
import { describe, expect, it } from 'vitest';
import { createSourceHttp } from '../../src/api/money/source-http.js';
import { httpHarness, sequence } from '../helpers/http-scripted.js';

const h = httpHarness();

async function traced(path: string): Promise<string[]> {
  const s = await h.scripted(sequence({ status: 200, body: {} }));
  const lines: string[] = [];
  const http = createSourceHttp({ trace: (l) => lines.push(l) });
  try {
    await http.json({ url: `${s.url}${path}`, method: 'POST', body: {} });
  } finally {
    http.close();
  }
  return lines.map((l) => l.replace(new URL(s.url).host, 'HOST'));
}

describe('source request traces', () => {
  it('a key in the path or query is never printed: the host and "/…"', async () => {
    expect((await traced('/v2/SECRETKEY?apikey=QSECRET'))[0]).toBe('→ POST HOST/…');
    expect((await traced('/hl/v2/SECRETKEY/info'))[0]).toBe('→ POST HOST/…');
  });

  it('the known public paths, and the embedded simulation’s, are printed whole', async () => {
    for (const path of ['/', '/info', '/positions', '/value', '/sim/hyperliquid/info', '/sim/evm/base']) {
      expect((await traced(path))[0]).toBe(`→ POST HOST${path}`);
    }
  });
});
