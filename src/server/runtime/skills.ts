// The skills catalogue of a SuperAgent (docs/api.md). Descriptions are our wording.

export interface SkillInfo {
  name: string;
  description: string;
  defaultEnabled: boolean;
}

export const SKILLS: readonly SkillInfo[] = Object.freeze(
  [
    {
      name: 'hyperliquid',
      description: 'Opens, sizes and closes leveraged perpetual-futures positions on Hyperliquid.',
      defaultEnabled: false,
    },
    {
      name: 'polymarket',
      description: 'Places and manages bets on Polymarket prediction markets.',
      defaultEnabled: false,
    },
    {
      name: 'polymarket-deep-research',
      description: 'Researches a Polymarket question in depth before a bet: resolution rules, news flow and liquidity.',
      defaultEnabled: false,
    },
    {
      name: 'evm-wallet',
      description: "Holds and moves tokens in the agent's EVM wallet on Ethereum and compatible chains.",
      defaultEnabled: true,
    },
    {
      name: 'solana-wallet',
      description: "Holds and moves SOL and SPL tokens in the agent's Solana wallet.",
      defaultEnabled: true,
    },
    {
      name: 'solana-swap',
      description: 'Swaps tokens on Solana through aggregated on-chain liquidity routes.',
      defaultEnabled: false,
    },
    {
      name: 'portfolio-tracker',
      description: 'Tracks balances, positions and profit and loss across all of the agent wallets.',
      defaultEnabled: true,
    },
    {
      name: 'chain-registry',
      description: 'Looks up networks, chain ids, RPC endpoints and bridge routes.',
      defaultEnabled: false,
    },
    {
      name: 'market-intel',
      description: 'Reads prices, news and market sentiment to inform decisions.',
      defaultEnabled: true,
    },
  ].map((s) => Object.freeze(s)),
);

export const SKILL_NAMES: readonly string[] = Object.freeze(SKILLS.map((s) => s.name));

export function isSkillName(name: string): boolean {
  return SKILL_NAMES.includes(name);
}

/** A fresh `{ skill: enabled }` map with the catalogue's defaults, in catalogue order. */
export function defaultSkillState(): Record<string, boolean> {
  const state: Record<string, boolean> = {};
  for (const skill of SKILLS) state[skill.name] = skill.defaultEnabled;
  return state;
}
