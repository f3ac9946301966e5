/**
 * The casino part of the reference model of `afp check`: per agent slot its provably fair seeds
 * (commitment learned from the first answer that names it, text learned at reveal, nonces used),
 * its Kelly risk factor and its referral-commission state; the bets settled (with the multiplier
 * inferred from each answer, checked against the game's law at once and against the revealed
 * seed later); tournaments, challenges, withdrawals and simulated deposits. Balances stay on
 * the faucet model's agents (one balance per agent, shared by every service).
 *
 * The casino's numbers come from the documents, written here, not read from the service config:
 * referral levels 10% / 5% / 2.5% of net losses (NOTES.md), rotation after 1,000 nonces
 * (NOTES.md), risk factor 0.25 by default (NOTES.md). Why outcomes are inferred: the server seed
 * is secret until revealed, so no client can predict an outcome; the model checks what a client
 * can (the multiplier is one the game pays, the money follows from it exactly, the nonce is the
 * next one) and replays every outcome once its seed is revealed (model-casino-fairness.ts).
 */
import type { CheckModel } from '../check-model.ts';
import type { ModelCasinoAgent, ModelSeed } from './casino-state.ts';

/** NOTES.md: a seed serves 1,000 nonces, then it is retired, revealed and replaced. */
const NONCES_PER_SEED = 1_000;
/** NOTES.md Kelly: default risk factor 0.25, as a whole percent. */
const RISK_PERCENT_DEFAULT = 25;
/** NOTES.md / casino.md Referral: 10%, 5%, 2.5% of net losses, in basis points per level. */
export const REFERRAL_LEVELS_BPS: readonly bigint[] = [1_000n, 500n, 250n];

export function casinoAgent(model: Readonly<CheckModel>, slot: number): ModelCasinoAgent {
  let agent = model.casino.agents.get(slot);
  if (agent === undefined) {
    agent = {
      seeds: [],
      riskPercent: RISK_PERCENT_DEFAULT,
      netLossMicro: 0n,
      highWaterMicro: 0n,
      paidMicro: REFERRAL_LEVELS_BPS.map(() => 0n),
      clientSeedsSent: 0,
    };
    model.casino.agents.set(slot, agent);
  }
  return agent;
}

/** The agent's active seed (the casino creates one on first use). */
export function activeSeed(model: Readonly<CheckModel>, slot: number): ModelSeed {
  const { seeds } = casinoAgent(model, slot);
  let seed = seeds.at(-1);
  if (seed === undefined) {
    seed = { hash: null, hex: null, revealed: false, nonces: 0 };
    seeds.push(seed);
  }
  return seed;
}

/** The seed and nonce the next draw of `slot` takes (without taking it): a used-up seed is replaced first. */
export function nextDraw(model: Readonly<CheckModel>, slot: number): { seed: ModelSeed; nonce: number } {
  const seed = activeSeed(model, slot);
  if (seed.nonces < NONCES_PER_SEED) return { seed, nonce: seed.nonces };
  return { seed: { hash: null, hex: null, revealed: false, nonces: 0 }, nonce: 0 };
}

/** Takes the draw `nextDraw` named: retires a used-up seed (revealed, its text unseen), counts the nonce. */
export function takeDraw(model: Readonly<CheckModel>, slot: number, drawn: { seed: ModelSeed; nonce: number }): void {
  const { seeds } = casinoAgent(model, slot);
  const active = activeSeed(model, slot);
  if (drawn.seed !== active) {
    active.revealed = true;
    seeds.push(drawn.seed);
  }
  drawn.seed.nonces = drawn.nonce + 1;
}

/** A fresh client seed of `slot`: printable, no ':' (the HMAC message separator), unique per run. */
export function newClientSeed(model: Readonly<CheckModel>, slot: number): string {
  const agent = casinoAgent(model, slot);
  agent.clientSeedsSent += 1;
  return `ck${slot}-${agent.clientSeedsSent}`;
}

/**
 * A settled bet's referral commissions (NOTES.md: 10% / 5% / 2.5% of net losses, three levels):
 * each level is owed floor(high-water net loss × bps / 10,000) in total and is paid the increase
 * into its referrer's payable, swept into the balance with the referral sweep.
 */
export function accrueCommissions(model: CheckModel, slot: number, stakeMicro: bigint, payoutMicro: bigint): void {
  const state = casinoAgent(model, slot);
  state.netLossMicro += stakeMicro - payoutMicro;
  if (state.netLossMicro <= state.highWaterMicro) return;
  state.highWaterMicro = state.netLossMicro;
  let referrerSlot = model.agents[slot]?.referrerSlot ?? null;
  for (let level = 0; level < REFERRAL_LEVELS_BPS.length && referrerSlot !== null; level++) {
    const referrer = model.agents[referrerSlot];
    if (referrer === undefined) return;
    const owedMicro = (state.highWaterMicro * (REFERRAL_LEVELS_BPS[level] as bigint)) / 10_000n;
    const dueMicro = owedMicro - (state.paidMicro[level] as bigint);
    if (dueMicro > 0n) {
      referrer.pendingReferralMicro += dueMicro;
      referrer.referralEarnedMicro[level] = (referrer.referralEarnedMicro[level] ?? 0n) + dueMicro;
      state.paidMicro[level] = owedMicro;
    }
    referrerSlot = referrer.referrerSlot;
  }
}
