import { describe, it, expect } from 'vitest';
import { base58 } from '@scure/base';
import {
  createWallet,
  evmAddressFromPrivateKey,
  isChecksumAddress,
  solanaAddressFromSeed,
  toChecksumAddress,
} from '../../src/server/wallets.js';

const hex = (s: string): Uint8Array => Uint8Array.from(s.match(/../g)!.map((b) => parseInt(b, 16)));

// Independent base58 (Bitcoin alphabet) encoder so the test does not trust the library under test.
const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
function base58Ref(bytes: Uint8Array): string {
  let n = 0n;
  for (const b of bytes) n = n * 256n + BigInt(b);
  let out = '';
  while (n > 0n) {
    out = ALPHABET[Number(n % 58n)] + out;
    n /= 58n;
  }
  for (const b of bytes) {
    if (b !== 0) break;
    out = '1' + out;
  }
  return out;
}

function privKey(last: number): Uint8Array {
  const k = new Uint8Array(32);
  k[31] = last;
  return k;
}

describe('EIP-55 checksum', () => {
  const vectors = [
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
    '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
    // all-caps and all-lower spec vectors
    '0x52908400098527886E0F7030069857D2E4169EE7',
    '0x8617E340B3D01FA5F11F306F4090FD50E238070D',
    '0xde709f2102306220921060314715629080e2fb77',
    '0x27b1fdb04752bbc536007a920d24acb045561c26',
  ];
  it.each(vectors)('round-trips %s from lowercase', (addr) => {
    expect(toChecksumAddress('0x' + addr.slice(2).toLowerCase())).toBe(addr);
    expect(toChecksumAddress(addr.toUpperCase().replace('0X', '0x'))).toBe(addr);
    expect(isChecksumAddress(addr)).toBe(true);
  });

  it('rejects wrong casing and malformed input', () => {
    expect(isChecksumAddress('0x5aaeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBe(false);
    expect(isChecksumAddress('5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBe(false);
    expect(isChecksumAddress('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe')).toBe(false);
    expect(() => toChecksumAddress('0xzz')).toThrow();
  });
});

describe('evmAddressFromPrivateKey', () => {
  it('derives the known addresses for private keys 1 and 2', () => {
    expect(evmAddressFromPrivateKey(privKey(1))).toBe('0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf');
    expect(evmAddressFromPrivateKey(privKey(2))).toBe('0x2B5AD5c4795c026514f8317c7a215E218DcCD6cF');
  });
});

describe('solanaAddressFromSeed', () => {
  it('matches the RFC 8032 test 1 public key in base58', () => {
    const seed = hex('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60');
    const pub = hex('d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a');
    const addr = solanaAddressFromSeed(seed);
    expect(addr).toBe(base58Ref(pub));
  });

  it('reference encoder agrees on leading zero bytes', () => {
    expect(base58Ref(Uint8Array.from([0, 0, 1]))).toBe('112');
  });
});

describe('createWallet', () => {
  it('returns a checksummed EVM address and a 32-byte Solana address, nothing else', () => {
    const w = createWallet();
    expect(Object.keys(w).sort()).toEqual(['evm_address', 'solana_address']);
    expect(w.evm_address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(isChecksumAddress(w.evm_address)).toBe(true);
    expect(base58.decode(w.solana_address)).toHaveLength(32);
  });

  it('gives different wallets on each call', () => {
    const a = createWallet();
    const b = createWallet();
    expect(a.evm_address).not.toBe(b.evm_address);
    expect(a.solana_address).not.toBe(b.solana_address);
  });
});
