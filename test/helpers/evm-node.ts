// A real EVM node on loopback for the chain readers' tests: `hardhat node` (a devDependency) on
// 127.0.0.1, a free port, the chain id asked for. Nothing is compiled (no compiler download): the
// contracts are bytecode put in place with hardhat_setCode, their state with hardhat_setStorageAt.
// Its config, and what hardhat keeps in the user's config dirs, go in a temp dir removed with the file.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Address, numberToHex, pad } from 'viem';
import { removeAfterFile } from './after-file.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const HARDHAT_CLI = path.join(ROOT, 'node_modules/hardhat/internal/cli/cli.js');
export const MULTICALL3: Address = '0xcA11bde05977b3631167028862bE2a173976CA11';

/**
 * A token with only what a balance read needs: any call returns the storage word at the slot named
 * by calldata[4..36] (for balanceOf(holder), the holder's address): PUSH1 4 CALLDATALOAD SLOAD
 * PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN.
 */
export const TOKEN_RUNTIME = '0x6004355460005260206000f3';

/** viem's Multicall3 creation bytecode (it ships it, unexported, for its deployless calls). */
function multicall3CreationCode(): string {
  const viemCjs = createRequire(import.meta.url).resolve('viem');
  const file = path.join(path.dirname(viemCjs), '../_esm/constants/contracts.js');
  const found = /multicall3Bytecode = '(0x[0-9a-f]+)'/.exec(fs.readFileSync(file, 'utf8'));
  if (!found) throw new Error(`no multicall3Bytecode in ${file}`);
  return found[1]!;
}

export interface EvmNode {
  url: string;
  /** how long the node took to answer, in ms (reported in the notes, never asserted) */
  startMs: number;
  rpc(method: string, params?: unknown[]): Promise<unknown>;
  setNative(holder: Address, wei: bigint): Promise<void>;
  /** puts TOKEN_RUNTIME at each address (a token with no code would make the read fail) */
  installTokens(addresses: readonly Address[]): Promise<void>;
  setTokenBalance(token: Address, holder: Address, units: bigint): Promise<void>;
  /** Multicall3's deployed code at its usual address */
  installMulticall3(): Promise<void>;
  stop(): Promise<void>;
}

/** Starts `hardhat node` serving `chainId`: call in beforeAll, and stop() in afterAll. */
export async function startEvmNode(chainId: number): Promise<EvmNode> {
  const dir = removeAfterFile(fs.mkdtempSync(path.join(os.tmpdir(), 'sa-evm-node-')));
  const config = path.join(dir, 'hardhat.config.cjs');
  const network = { chainId, accounts: { count: 1 } };
  fs.writeFileSync(config, `module.exports = ${JSON.stringify({ networks: { hardhat: network } })};\n`);
  const began = performance.now();
  const args = [HARDHAT_CLI, 'node', '--hostname', '127.0.0.1', '--port', '0', '--config', config];
  const child = spawn(process.execPath, args, {
    // hardhat must be run from the project that installs it; its own files go to the temp dir
    cwd: ROOT,
    env: {
      ...process.env,
      XDG_CONFIG_HOME: dir,
      XDG_CACHE_HOME: dir,
      XDG_DATA_HOME: dir,
      HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // a worker that ends without the file's afterAll does not leave the node running
  const kill = () => child.kill('SIGKILL');
  process.once('exit', kill);
  const url = await listening(child).catch((err: unknown) => {
    process.removeListener('exit', kill);
    throw err;
  });
  const startMs = Math.round(performance.now() - began);
  let id = 0;
  const rpc = async (method: string, params: unknown[] = []) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
    });
    const body = (await res.json()) as { result?: unknown; error?: { message: string } };
    if (body.error) throw new Error(`${method}: ${body.error.message}`);
    return body.result;
  };
  return {
    url,
    startMs,
    rpc,
    async setNative(holder, wei) {
      await rpc('hardhat_setBalance', [holder, numberToHex(wei)]);
    },
    async installTokens(addresses) {
      for (const a of addresses) await rpc('hardhat_setCode', [a, TOKEN_RUNTIME]);
    },
    async setTokenBalance(token, holder, units) {
      await rpc('hardhat_setStorageAt', [token, numberToHex(BigInt(holder)), pad(numberToHex(units))]);
    },
    async installMulticall3() {
      // a call with creation code and no `to` answers the code it would deploy
      const runtime = await rpc('eth_call', [{ data: multicall3CreationCode() }, 'latest']);
      await rpc('hardhat_setCode', [MULTICALL3, runtime]);
    },
    async stop() {
      process.removeListener('exit', kill);
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The URL the node prints once it listens; its output if it ends or takes more than 20 s first. */
function listening(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let done = false;
    const fail = (why: string) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`hardhat node ${why}:\n${out.slice(-2000)}`));
    };
    const timer = setTimeout(() => fail('did not listen within 20 s'), 20_000);
    const onData = (chunk: Buffer) => {
      if (done) return;
      out += chunk.toString('utf8');
      const found = /JSON-RPC server at (http:\/\/127\.0\.0\.1:\d+)\//.exec(out);
      if (found) {
        clearTimeout(timer);
        child.removeListener('exit', onExit);
        done = true;
        out = '';
        resolve(found[1]!);
      }
    };
    const onExit = (code: number | null) => fail(`ended (${code})`);
    // its output is read to the end, or a full pipe would stop it
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', onExit);
  });
}
