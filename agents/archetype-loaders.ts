/**
 * The archetype table by name, each row loading its module only when asked: a command loads the
 * archetypes its scenario names and no others. Why beside index.ts (AGENTS, every archetype
 * imported up front, for the library and the tools that list them all): the property archetype
 * alone brings afp check's models and fast-check (about 70 modules), and `afp run` of a faucet and
 * escrow scenario paid for all 23 archetypes on every start. A row's `module` is its file under
 * agents/ without extension (the k6 export bundles by it); test/agents/agent-modules.test.ts
 * checks that every row loads the very definition AGENTS holds under its name.
 * Determinism: a run looks archetypes up only by its populations' names (src/agent/agent-ring.ts),
 * so a table of those names alone runs exactly as the whole one.
 */
import type { AnyAgentDefinition } from '../src/agent/agent.ts';

export interface ArchetypeLoader {
  /** The archetype's file under agents/, without extension (`faucet/faucet-farmer`). */
  readonly module: string;
  readonly load: () => Promise<AnyAgentDefinition>;
}

const row = (module: string, load: () => Promise<AnyAgentDefinition>): ArchetypeLoader => ({ module, load });

/** Each archetype by the name scenario populations use, in the order of the AGENTS table. */
export const ARCHETYPE_LOADERS: Readonly<Record<string, ArchetypeLoader>> = Object.freeze({
  'faucet-farmer': row('faucet/faucet-farmer', async () => (await import('./faucet/faucet-farmer.ts')).faucetFarmer),
  'escrow-buyer': row('escrow/escrow-buyer', async () => (await import('./escrow/escrow-buyer.ts')).escrowBuyer),
  'escrow-seller': row('escrow/escrow-seller', async () => (await import('./escrow/escrow-seller.ts')).escrowSeller),
  'rate-limit-abuser': row(
    'shared/rate-limit-abuser',
    async () => (await import('./shared/rate-limit-abuser.ts')).rateLimitAbuser,
  ),
  'bad-input-sender': row(
    'shared/bad-input-sender',
    async () => (await import('./shared/bad-input-sender.ts')).badInputSender,
  ),
  'fixed-bettor': row('casino/fixed-bettor', async () => (await import('./casino/fixed-bettor.ts')).fixedBettor),
  martingale: row('casino/martingale', async () => (await import('./casino/martingale.ts')).martingale),
  'kelly-bettor': row('casino/kelly-bettor', async () => (await import('./casino/kelly-bettor.ts')).kellyBettor),
  'batch-bettor': row('casino/batch-bettor', async () => (await import('./casino/batch-bettor.ts')).batchBettor),
  'tournament-player': row(
    'casino/tournament-player',
    async () => (await import('./casino/tournament-player.ts')).tournamentPlayer,
  ),
  challenger: row('casino/challenger', async () => (await import('./casino/challenger.ts')).challenger),
  'fairness-checker': row(
    'casino/fairness-checker',
    async () => (await import('./casino/fairness-checker.ts')).fairnessChecker,
  ),
  'momentum-trader': row(
    'trading/momentum-trader',
    async () => (await import('./trading/momentum-trader.ts')).momentumTrader,
  ),
  'market-maker': row('trading/market-maker', async () => (await import('./trading/market-maker.ts')).marketMaker),
  'leveraged-gambler': row(
    'trading/leveraged-gambler',
    async () => (await import('./trading/leveraged-gambler.ts')).leveragedGambler,
  ),
  'funding-harvester': row(
    'trading/funding-harvester',
    async () => (await import('./trading/funding-harvester.ts')).fundingHarvester,
  ),
  'domain-squatter': row(
    'domains/domain-squatter',
    async () => (await import('./domains/domain-squatter.ts')).domainSquatter,
  ),
  'domain-flipper': row(
    'domains/domain-flipper',
    async () => (await import('./domains/domain-flipper.ts')).domainFlipper,
  ),
  'dns-manager': row('domains/dns-manager', async () => (await import('./domains/dns-manager.ts')).dnsManager),
  'referral-recruiter': row(
    'shared/referral-recruiter',
    async () => (await import('./shared/referral-recruiter.ts')).referralRecruiter,
  ),
  'wallet-holder': row('wallet/wallet-holder', async () => (await import('./wallet/wallet-holder.ts')).walletHolder),
  'wallet-swapper': row(
    'wallet/wallet-swapper',
    async () => (await import('./wallet/wallet-swapper.ts')).walletSwapper,
  ),
  property: row('property/property-agent', async () => (await import('./property/property-agent.ts')).propertyAgent),
});

/** Every archetype name, sorted (a scenario's `unknown agent` error lists them without loading any). */
export const ARCHETYPE_NAMES: readonly string[] = Object.keys(ARCHETYPE_LOADERS).sort();

/**
 * The archetypes among `names` (in the order given, once each), loaded; a name that is no
 * archetype is left out, for the scenario parser to report with its path.
 */
export async function loadArchetypes(names: Iterable<string>): Promise<Readonly<Record<string, AnyAgentDefinition>>> {
  const known = [...new Set(names)].filter((name) => Object.hasOwn(ARCHETYPE_LOADERS, name));
  const definitions = await Promise.all(known.map((name) => (ARCHETYPE_LOADERS[name] as ArchetypeLoader).load()));
  return Object.freeze(
    Object.fromEntries(known.map((name, index) => [name, definitions[index] as AnyAgentDefinition])),
  );
}
