// Wallet address generation for the embedded simulation. Key pairs are real
// (secp256k1 for EVM, ed25519 for Solana) so addresses are well-formed, but the
// private keys exist only inside createWallet: never returned, stored or logged.
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { ed25519 } from '@noble/curves/ed25519.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { base58 } from '@scure/base';

export interface WalletAddresses {
  evm_address: string;
  solana_address: string;
}

const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** EIP-55: uppercase each hex letter whose keccak-256(lowercase hex) nibble is >= 8. */
export function toChecksumAddress(address: string): string {
  if (!HEX_ADDRESS.test(address)) throw new Error(`invalid EVM address: ${address}`);
  const lower = address.slice(2).toLowerCase();
  const hash = bytesToHex(keccak_256(utf8ToBytes(lower)));
  let out = '0x';
  for (let i = 0; i < lower.length; i++) {
    out += parseInt(hash[i]!, 16) >= 8 ? lower[i]!.toUpperCase() : lower[i]!;
  }
  return out;
}

/** True only for a 0x-prefixed, 40-hex address whose casing is the exact EIP-55 checksum. */
export function isChecksumAddress(address: string): boolean {
  return HEX_ADDRESS.test(address) && toChecksumAddress(address) === address;
}

/** keccak-256 of the 64-byte uncompressed public key (0x04 prefix dropped), last 20 bytes. */
export function evmAddressFromPrivateKey(priv: Uint8Array): string {
  const pub = secp256k1.getPublicKey(priv, false); // 65 bytes: 0x04 || X || Y
  const hash = keccak_256(pub.subarray(1));
  return toChecksumAddress('0x' + bytesToHex(hash.subarray(-20)));
}

/** A Solana address is the base58 (Bitcoin alphabet) of the 32-byte ed25519 public key. */
export function solanaAddressFromSeed(seed: Uint8Array): string {
  return base58.encode(ed25519.getPublicKey(seed));
}

export function createWallet(): WalletAddresses {
  // Secret keys stay local to this call and go out of scope on return.
  const evmPriv = secp256k1.utils.randomSecretKey();
  const solSeed = ed25519.utils.randomSecretKey();
  return {
    evm_address: evmAddressFromPrivateKey(evmPriv),
    solana_address: solanaAddressFromSeed(solSeed),
  };
}
