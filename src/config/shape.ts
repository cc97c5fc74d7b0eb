// The config file's contents as the code sees them (file.ts reads and writes them, conf-store.ts
// migrates and checks them): apart, so that neither imports the other for its types.

export interface Profile {
  base_url?: string;
  api_key?: string;
  /** `keychain`: the key is in the OS keychain (config/keychain.ts), not in this file */
  api_key_store?: 'keychain';
  output?: 'table' | 'json';
  /** what `launch` sends when no --model / --provider is given */
  model?: string;
  provider?: string;
  /** Markdown rendering of replies on a terminal */
  render?: 'markdown' | 'raw';
  /** where the money commands read each chain, Hyperliquid and Polymarket: an http(s) URL or `off` */
  'rpc.ethereum'?: string;
  'rpc.arbitrum'?: string;
  'rpc.base'?: string;
  'rpc.polygon'?: string;
  'rpc.bsc'?: string;
  'rpc.optimism'?: string;
  'rpc.solana'?: string;
  hyperliquid_url?: string;
  polymarket_url?: string;
}

export interface ConfigData {
  /** the file's shape (conf-store.ts migrates an older one); none: version 1 */
  version?: number;
  active_profile?: string;
  profiles?: Record<string, Profile>;
}
