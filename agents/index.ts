/**
 * The agent archetype table: one file per archetype, registered here by the name scenario
 * populations use (`agent: escrow-buyer`). A new archetype is a new file and a new row.
 * Layout (docs/layout.md): an archetype of one service lives in that service's folder (casino/,
 * escrow/, faucet/, wallet/); archetypes that cross services (bad input, rate-limit abuse) live in shared/; the property-based
 * archetype, which draws from afp check's command table, in property/.
 */
import type { AnyAgentDefinition } from '../src/sim/agent.ts';
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

/** Each archetype with its module under agents/ (the k6 export bundles only the archetypes a scenario uses). */
const TABLE: ReadonlyArray<readonly [string, AnyAgentDefinition]> = [
  ['faucet/faucet-farmer', faucetFarmer],
  ['escrow/escrow-buyer', escrowBuyer],
  ['escrow/escrow-seller', escrowSeller],
  ['shared/rate-limit-abuser', rateLimitAbuser],
  ['shared/bad-input-sender', badInputSender],
  ['casino/fixed-bettor', fixedBettor],
  ['casino/martingale', martingale],
  ['casino/kelly-bettor', kellyBettor],
  ['casino/batch-bettor', batchBettor],
  ['casino/tournament-player', tournamentPlayer],
  ['casino/challenger', challenger],
  ['casino/fairness-checker', fairnessChecker],
  ['trading/momentum-trader', momentumTrader],
  ['trading/market-maker', marketMaker],
  ['trading/leveraged-gambler', leveragedGambler],
  ['trading/funding-harvester', fundingHarvester],
  ['domains/domain-squatter', domainSquatter],
  ['domains/domain-flipper', domainFlipper],
  ['domains/dns-manager', dnsManager],
  ['shared/referral-recruiter', referralRecruiter],
  ['wallet/wallet-holder', walletHolder],
  ['wallet/wallet-swapper', walletSwapper],
  ['property/property-agent', propertyAgent],
];

export const AGENTS: Readonly<Record<string, AnyAgentDefinition>> = Object.freeze(
  Object.fromEntries(TABLE.map(([, definition]) => [definition.name, definition])),
);

/** Archetype name → its module, relative to agents/ without extension (`faucet/faucet-farmer`). */
export const AGENT_MODULES: Readonly<Record<string, string>> = Object.freeze(
  Object.fromEntries(TABLE.map(([module, definition]) => [definition.name, module])),
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
