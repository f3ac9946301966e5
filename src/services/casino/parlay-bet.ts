/**
 * placeParlay: the deployed casino's parlay (spec/DEPLOYED.md §2.5) placed as ONE bet. Checks in
 * precedence order before anything changes: the amount is within the rules' minimum and 10 USDC
 * (400, the deployment's words), the balance covers it (INSUFFICIENT_BALANCE); the legs read
 * (deployed/parlay-rule.ts). No Kelly check (the deployment makes none on a parlay).
 *
 * Draws: the first leg takes the agent's next nonce, each further leg the next (the counter
 * advances past all of them, as a multi-nonce game's does), under the active server seed; a leg
 * without its own `params.client_seed` uses the parlay's, `parlay_<ms>` of the injected clock (the
 * deployment's wall-clock `parlay_<now>`; docs/decisions/deployed-dialect.md). A leg whose parameters
 * do not play gives the nonces back (nothing has changed) and is a 400.
 * Record: game `parlay`, nonce 0 (the deployment stores it so: it draws nothing), the parlay's client
 * seed, result hash HMAC(seed, "<client seed>:0"), parameters `{ bets: [{ game, params, nonce }] }`
 * (every leg's nonce, so the bet replays from its record), detail the rule's
 * `{ legs, all_won, legs_won, combined_multiplier }`. Money: the stake to the house and
 * floor(stake × combined multiplier) back when every leg won (settleAs: the ledger's conservation
 * holds as for any bet); no referral commission (§2.9).
 */
import { fail, succeed, type JsonObject, type Outcome } from '../../core/errors.ts';
import { formatDecimal, type Micro } from '../../core/money.ts';
import type { BetRecord } from './bet-record.ts';
import type { CasinoState } from './casino-state.ts';
import { deployedMinimumMicro, type DeployedCasinoRules } from './deployed/deployed-casino-rules.ts';
import { hmacHex } from './deployed/deployed-roll.ts';
import { isUnreadable, RollSource } from './deployed/deployed-rule.ts';
import { deployedRuleTable } from './deployed/deployed-rule-table.ts';
import { parlayLegs } from './deployed/parlay-rule.ts';
import { settleAs, takeNonce } from './place-bet.ts';

/** The deployment's largest parlay stake (DEPLOYED.md §2.5, the games list's Kelly maximum 10). */
export const PARLAY_MAX_MICRO: Micro = 10_000_000n;

export interface ParlayCommand {
  readonly agentId: string;
  readonly amountMicro: Micro;
  /** The legs as sent: `[{ game, params }]`. */
  readonly bets: readonly JsonObject[];
  readonly rules: DeployedCasinoRules;
}

export function placeParlay(state: CasinoState, command: ParlayCommand, nowMs: number): Outcome<BetRecord> {
  const { agentId, amountMicro, rules } = command;
  const minimumMicro = deployedMinimumMicro(rules);
  if (amountMicro < minimumMicro)
    return fail('BAD_REQUEST', `Minimum bet is $${formatDecimal(minimumMicro)}`, {
      min_bet: Number(formatDecimal(minimumMicro)),
    });
  if (amountMicro > PARLAY_MAX_MICRO)
    return fail('BAD_REQUEST', `Maximum parlay bet is $${formatDecimal(PARLAY_MAX_MICRO)}`, {
      max_bet: Number(formatDecimal(PARLAY_MAX_MICRO)),
    });
  const legs = parlayLegs({ bets: [...command.bets] });
  if (isUnreadable(legs)) return fail('BAD_REQUEST', legs.why);
  const agent = state.agent(agentId);
  const balanceMicro = state.ctx.ledger.balance(agent.account);
  if (balanceMicro < amountMicro)
    return fail(
      'INSUFFICIENT_BALANCE',
      `balance ${formatDecimal(balanceMicro)} is below the bet ${formatDecimal(amountMicro)}`,
    );
  const { seed, nonce } = takeNonce(state, agentId, nowMs);
  const clientSeed = `parlay_${nowMs}`;
  const rule = deployedRuleTable(rules).get('parlay');
  const play =
    rule === undefined
      ? { why: 'the rules have no parlay' }
      : rule.play({ bets: [...command.bets] }, new RollSource(seed.hex, clientSeed, nonce));
  if (isUnreadable(play)) {
    seed.nonces -= 1;
    return fail('BAD_REQUEST', play.why);
  }
  seed.nonces += legs.length - 1;
  const paramsJson: JsonObject = {
    bets: legs.map((leg, index) => ({ game: leg.game, params: leg.params, nonce: nonce + index })),
  };
  return succeed(
    settleAs(
      state,
      agent,
      { agentId, paramsJson, amountMicro, source: 'A' },
      { game: 'parlay', variant: 'parlay', referral: 'none' },
      {
        result: { multiplier: play.multiplier, detail: play.result },
        seedHash: seed.hash,
        clientSeed,
        nonce: 0,
        resultHash: hmacHex(seed.hex, `${clientSeed}:0`),
      },
      nowMs,
    ),
  );
}
