/**
 * The agent archetype table: one file per archetype, registered here by the name scenario
 * populations use (`agent: escrow-buyer`). A new archetype is a new file and a new row.
 */
import type { AnyAgentDefinition } from '../src/sim/agent.ts';
import { badInputSender } from './bad-input-sender.ts';
import { batchBettor } from './batch-bettor.ts';
import { challenger } from './challenger.ts';
import { escrowBuyer } from './escrow-buyer.ts';
import { escrowSeller } from './escrow-seller.ts';
import { fairnessChecker } from './fairness-checker.ts';
import { faucetFarmer } from './faucet-farmer.ts';
import { fixedBettor } from './fixed-bettor.ts';
import { kellyBettor } from './kelly-bettor.ts';
import { martingale } from './martingale.ts';
import { rateLimitAbuser } from './rate-limit-abuser.ts';
import { tournamentPlayer } from './tournament-player.ts';

export const AGENTS: Readonly<Record<string, AnyAgentDefinition>> = Object.freeze(
  Object.fromEntries(
    [
      faucetFarmer, escrowBuyer, escrowSeller, rateLimitAbuser, badInputSender,
      fixedBettor, martingale, kellyBettor, batchBettor, tournamentPlayer, challenger, fairnessChecker,
    ].map((definition) => [definition.name, definition]),
  ),
);

export const AGENT_NAMES: readonly string[] = Object.keys(AGENTS).sort();

/** Each archetype's one-line description, for the editor schema and `afp agents`. */
export const ARCHETYPE_DESCRIPTIONS: Readonly<Record<string, string>> = Object.fromEntries(AGENT_NAMES.map((name) => [name, (AGENTS[name] as AnyAgentDefinition).description]));

/** Each archetype's params schema, for the scenario file's editor schema (scripts/gen-schema.ts). */
export const ARCHETYPE_PARAMS: Readonly<Record<string, AnyAgentDefinition['params']>> = Object.fromEntries(AGENT_NAMES.map((name) => [name, (AGENTS[name] as AnyAgentDefinition).params]));
