/**
 * The agent archetype table: one file per archetype, registered here by the name scenario
 * populations use (`agent: escrow-buyer`). A new archetype is a new file and a new row.
 * Layout (docs/layout.md): an archetype of one service lives in that service's folder (casino/,
 * escrow/, faucet/, wallet/); archetypes that cross services (bad input, rate-limit abuse) live in shared/; the property-based
 * archetype, which draws from afp check's command table, in property/.
 * This table imports every archetype (the library's AGENTS, the tools that list them all); a
 * command that runs a scenario loads only its archetypes through archetype-loaders.ts, the table
 * of each archetype's module, so a new archetype is a row there too.
 */
import type { AnyAgentDefinition } from '../src/agent/agent.ts';
import { ARCHETYPE_LOADERS } from './archetype-loaders.ts';
import { batchBettor } from './casino/batch-bettor.ts';
import { challenger } from './casino/challenger.ts';
import { fairnessChecker } from './casino/fairness-checker.ts';
import { fixedBettor } from './casino/fixed-bettor.ts';
import { kellyBettor } from './casino/kelly-bettor.ts';
import { martingale } from './casino/martingale.ts';
import { tournamentPlayer } from './casino/tournament-player.ts';
import { dnsManager } from './domains/dns-manager.ts';
import { domainFlipper } from './domains/domain-flipper.ts';
import { domainSquatter } from './domains/domain-squatter.ts';
import { escrowBuyer } from './escrow/escrow-buyer.ts';
import { escrowSeller } from './escrow/escrow-seller.ts';
import { faucetFarmer } from './faucet/faucet-farmer.ts';
import { propertyAgent } from './property/property-agent.ts';
import { badInputSender } from './shared/bad-input-sender.ts';
import { rateLimitAbuser } from './shared/rate-limit-abuser.ts';
import { referralRecruiter } from './shared/referral-recruiter.ts';
import { fundingHarvester } from './trading/funding-harvester.ts';
import { leveragedGambler } from './trading/leveraged-gambler.ts';
import { marketMaker } from './trading/market-maker.ts';
import { momentumTrader } from './trading/momentum-trader.ts';
import { walletHolder } from './wallet/wallet-holder.ts';
import { walletSwapper } from './wallet/wallet-swapper.ts';

/** Every archetype, in the order of the lazy table (archetype-loaders.ts), which names each one's module. */
const DEFINITIONS: readonly AnyAgentDefinition[] = [
  faucetFarmer,
  escrowBuyer,
  escrowSeller,
  rateLimitAbuser,
  badInputSender,
  fixedBettor,
  martingale,
  kellyBettor,
  batchBettor,
  tournamentPlayer,
  challenger,
  fairnessChecker,
  momentumTrader,
  marketMaker,
  leveragedGambler,
  fundingHarvester,
  domainSquatter,
  domainFlipper,
  dnsManager,
  referralRecruiter,
  walletHolder,
  walletSwapper,
  propertyAgent,
];

export const AGENTS: Readonly<Record<string, AnyAgentDefinition>> = Object.freeze(
  Object.fromEntries(DEFINITIONS.map((definition) => [definition.name, definition])),
);

/** Archetype name → its module, relative to agents/ without extension (`faucet/faucet-farmer`). */
export const AGENT_MODULES: Readonly<Record<string, string>> = Object.freeze(
  Object.fromEntries(Object.entries(ARCHETYPE_LOADERS).map(([name, loader]) => [name, loader.module])),
);

export const AGENT_NAMES: readonly string[] = Object.keys(AGENTS).sort();

/** Each archetype's one-line description, for the editor schema and `afp agents`. */
export const ARCHETYPE_DESCRIPTIONS: Readonly<Record<string, string>> = Object.fromEntries(
  AGENT_NAMES.map((name) => [name, (AGENTS[name] as AnyAgentDefinition).description]),
);

/** Each archetype's params schema, for the scenario file's editor schema (scripts/gen-schema.ts). */
export const ARCHETYPE_PARAMS: Readonly<Record<string, AnyAgentDefinition['params']>> = Object.fromEntries(
  AGENT_NAMES.map((name) => [name, (AGENTS[name] as AnyAgentDefinition).params]),
);
