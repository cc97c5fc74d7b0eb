// The environment variables the CLI reads, as docs/cli.md lists them (a test checks that every
// SUPERAGENT_ variable read under src/ is here). Terminal detection (TERM_PROGRAM, TMUX…) is left out.

export interface EnvironmentVariable {
  name: string;
  description: string;
}

export const ENVIRONMENT: readonly EnvironmentVariable[] = [
  { name: 'SUPERAGENT_API_KEY', description: 'the API key (as --api-key, which other users can see); never stored' },
  { name: 'SUPERAGENT_BASE_URL', description: 'base URL of the service, without /v1 (as --base-url)' },
  { name: 'SUPERAGENT_PROFILE', description: 'the profile of the config file to use (as --profile)' },
  {
    name: 'SUPERAGENT_CONFIG_DIR',
    description: "where the config file lives (default: the platform's config directory)",
  },
  {
    name: 'SUPERAGENT_DATA_DIR',
    description: "where the embedded local service keeps its state (default: the platform's data directory)",
  },
  {
    name:
      'SUPERAGENT_RPC_ETHEREUM, SUPERAGENT_RPC_ARBITRUM, SUPERAGENT_RPC_BASE, SUPERAGENT_RPC_POLYGON, ' +
      'SUPERAGENT_RPC_BSC, SUPERAGENT_RPC_OPTIMISM, SUPERAGENT_RPC_SOLANA',
    description:
      "the JSON-RPC endpoint each chain's balances are read from (`wallet`, `destroy`); `off` skips the chain. " +
      'Else the profile setting `rpc.<chain>`; else, on the embedded service, its simulation; else a public endpoint',
  },
  {
    name: 'SUPERAGENT_HYPERLIQUID_URL, SUPERAGENT_POLYMARKET_URL',
    description:
      "the base URL of Hyperliquid's API (posted to at `<base>/info`) and of Polymarket's data API; `off` skips it. " +
      'Else the profile setting `hyperliquid_url`, `polymarket_url`; else the simulation or the public API',
  },
  {
    name: 'SUPERAGENT_PAPER_BALANCE',
    description:
      'the paper USDC each agent launched on the embedded local ' +
      'service gets on its simulated Hyperliquid (default 10000)',
  },
  {
    name: 'SUPERAGENT_SIM_SPEED',
    description:
      'how many times faster the embedded local service simulates its market ' +
      '(as superagent server --sim-speed; default 1)',
  },
  {
    name: 'SUPERAGENT_SIM_SCENARIO',
    description:
      "the embedded local service's simulated market scenario: calm (the default on a new data dir) or crash " +
      '(as superagent server --sim-scenario); kept in the data dir until another is named',
  },
  {
    name: 'SUPERAGENT_HOSTED_URL',
    description: 'where a gb_sk_ key with no base URL goes, instead of the hosted service (a local mock, in tests)',
  },
  {
    name: 'SUPERAGENT_COMPLETION_BUDGET_MS',
    description: 'the longest a Tab waits for agent names from the service, in milliseconds (default 1000)',
  },
  {
    name: 'HTTPS_PROXY, HTTP_PROXY',
    description: 'the proxy for https:// and http:// requests, either case (HTTPS_PROXY falls back on HTTP_PROXY)',
  },
  {
    name: 'NO_PROXY',
    description: 'hosts (and their subdomains), host:port, or * that go without the proxy; either case',
  },
  { name: 'CI', description: 'set (and not 0 or false): never prompt, as --no-input' },
  { name: 'NO_COLOR', description: 'set (to anything): no colour, as --no-color' },
  { name: 'FORCE_COLOR', description: 'colour even when the output is no terminal (not 0)' },
  { name: 'TERM', description: 'dumb: no colour and no Markdown rendering' },
  { name: 'FORCE_HYPERLINK', description: 'set: links in rendered Markdown are terminal hyperlinks; 0: never' },
  { name: 'VISUAL, EDITOR', description: 'the editor of `soul edit`, the first one set (default: vi)' },
  { name: 'TMPDIR', description: "where `soul edit` writes the file it opens (default: the system's temp directory)" },
  {
    name: 'XDG_CACHE_HOME',
    description:
      "where the completion cache and the launch lock live, on Linux (default: the platform's cache directory)",
  },
];
