/**
 * Casino bet commands of `afp check`: a single style-A bet (coin flip, dice, roulette, keno,
 * plinko), a style-B bet (/casino-api/bet: coinflip, dice, roulette) and a style-A batch mixing
 * valid and invalid elements. Each resolves its amount against the model (minimum, Kelly limit,
 * balance…), sends it with the agent's key, and compares the answer with the model: the refusal
 * and its `min_bet` / `max_bet`, or the accepted bet's money, nonce and seed commitment given the
 * multiplier the answer reports (which must be one the game pays).
 */
import { formatDecimal, toNumber } from '../../core/money.ts';
import type { ApiResult } from '../../client/client.ts';
import type { CasinoBody } from '../../client/casino-client.ts';
import type { CheckModel } from '../check-model.ts';
import { compareAnswer, eq, list, money, object, type Matcher, type Prediction } from '../expectation.ts';
import {
  betBodyA,
  betBodyB,
  expectedBetRefusal,
  commitBet,
  inferMultiplier,
  resolveAmount,
  settlementOf,
  type AmountKind,
  type Settlement,
} from './model-casino-bets.ts';
import { newClientSeed } from './model-casino.ts';
import type { ModelBet } from './casino-state.ts';
import { casinoMismatch, field } from './model-casino-expect.ts';
import { choiceText, detailProblems, paramsA, type ModelGameChoice } from './model-casino-games.ts';
import { casinoAgentReady, expectAnswer, keyed, soloStyleACommand, type CommandSpec } from '../model-command.ts';

export interface BetCommandInput {
  readonly slot: number;
  readonly choice: ModelGameChoice;
  readonly amount: AmountKind;
  /** Send our own client seed (else the casino draws one and the proof names it). */
  readonly ownSeed: boolean;
}

/** Compares a bet answer with the model and settles it; `extra` adds fields (tournament_id). */
export function expectBetAnswer(
  label: string,
  model: CheckModel,
  bet: { slot: number; choice: ModelGameChoice; amountMicro: bigint; clientSeed: string | null; style: 'A' | 'B' },
  answer: ApiResult<CasinoBody>,
  extra: { body?: Record<string, Matcher>; onSettled?: (settled: Settlement, record: ModelBet) => void } = {},
): void {
  const answeredClosed = answer.status === 409 && field(answer.body, 'code') === 'GAME_CLOSED';
  const refusal = expectedBetRefusal(model, bet.slot, bet.choice, bet.amountMicro, answeredClosed);
  if (refusal !== null) {
    expectAnswer(label, model, answer, {
      expected: {
        status: refusal.status,
        code: refusal.code,
        ...(refusal.body === undefined ? {} : { body: refusal.body }),
      },
    });
    return;
  }
  // expectAnswer throws unless the answer is one of the target's fault windows, which moved nothing.
  if (answer.status !== 200) return expectAnswer(label, model, answer, { expected: { status: 200 } });
  const reported =
    bet.style === 'A'
      ? { style: 'A' as const, value: field(answer.body, 'payout_multiplier') }
      : { style: 'B' as const, value: field(answer.body, 'payout') };
  const multiplier = inferMultiplier(bet.choice, bet.amountMicro, reported);
  if (typeof multiplier === 'string')
    casinoMismatch(`${label} (amount ${formatDecimal(bet.amountMicro)})`, model, [`body.${multiplier}`]);
  const inconsistent = bet.style === 'A' ? detailProblems(bet.choice, multiplier, field(answer.body, 'result')) : [];
  if (inconsistent.length > 0)
    casinoMismatch(
      `${label} (amount ${formatDecimal(bet.amountMicro)})`,
      model,
      inconsistent.map((problem) => `body.${problem}`),
    );
  const settled = settlementOf(model, bet.slot, bet.choice, bet.amountMicro, multiplier, bet.clientSeed);
  const body = { ...(bet.style === 'A' ? betBodyA(model, settled) : betBodyB(settled)), ...extra.body };
  const prediction: Prediction = {
    expected: { status: 200, body },
    commit: (answered) => {
      const record = commitBet(model, settled, answered, bet.style);
      extra.onSettled?.(settled, record);
    },
  };
  expectAnswer(`${label} (amount ${formatDecimal(bet.amountMicro)})`, model, answer, prediction);
}

const registered = (model: Readonly<CheckModel>, slot: number): boolean => model.agents[slot] !== undefined;

export function betACommand(input: BetCommandInput): CommandSpec {
  const { slot, choice } = input;
  const label = `betA(a${slot}, ${choiceText(choice)}, ${input.amount}${input.ownSeed ? '' : ', server seed'})`;
  return soloStyleACommand(
    slot,
    label,
    (model) => casinoAgentReady(model, slot),
    async (model, system) => {
      const amountMicro = resolveAmount(model, slot, choice, input.amount);
      const clientSeed = input.ownSeed ? newClientSeed(model, slot) : null;
      const body = {
        amount: toNumber(amountMicro),
        ...paramsA(choice),
        ...(clientSeed === null ? {} : { client_seed: clientSeed }),
      };
      const answer = await keyed(model, system, slot).casino.call(`casino.A.game.${choice.game}`, { body });
      expectBetAnswer(label, model, { slot, choice, amountMicro, clientSeed, style: 'A' }, answer);
    },
  );
}

/** The `params` object of a style-B bet (coinflip side; dice target and over; roulette bet). */
function paramsB(choice: ModelGameChoice): { game: string; params: Record<string, unknown> } {
  switch (choice.game) {
    case 'coin_flip':
      return { game: 'coinflip', params: { side: choice.side } };
    case 'dice':
      return { game: 'dice', params: { target: choice.threshold, over: choice.direction === 'over' } };
    case 'roulette':
      return { game: 'roulette', params: { bet: choice.betType === 'number' ? choice.betValue : choice.betType } };
    case 'keno':
    case 'plinko':
      throw new Error(`style B has no ${choice.game}`);
  }
}

export function betBCommand(input: BetCommandInput & { amountAs: 'number' | 'string' }): CommandSpec {
  const { slot, choice } = input;
  const label = `betB(a${slot}, ${choiceText(choice)}, ${input.amount}, amount as ${input.amountAs})`;
  return soloStyleACommand(
    slot,
    label,
    (model) => registered(model, slot),
    async (model, system) => {
      const amountMicro = resolveAmount(model, slot, choice, input.amount);
      const clientSeed = newClientSeed(model, slot);
      const amount = input.amountAs === 'string' ? formatDecimal(amountMicro) : toNumber(amountMicro);
      const answer = await keyed(model, system, slot).casino.betB({
        ...paramsB(choice),
        amount,
        client_seed: clientSeed,
      });
      expectBetAnswer(label, model, { slot, choice, amountMicro, clientSeed, style: 'B' }, answer);
    },
  );
}

/** A batch element: a bet, or an element the batch must refuse on its own (unknown game, video poker). */
export type BatchElement =
  | { readonly kind: 'bet'; readonly choice: ModelGameChoice; readonly amount: AmountKind }
  | { readonly kind: 'game'; readonly game: 'craps' | 'video_poker' };

function elementText(element: BatchElement): string {
  return element.kind === 'bet' ? `${choiceText(element.choice)} ${element.amount}` : `game ${element.game}`;
}

export function batchCommand(slot: number, elements: readonly BatchElement[]): CommandSpec {
  const label = `batch(a${slot}, [${elements.map(elementText).join('; ')}])`;
  return soloStyleACommand(
    slot,
    label,
    (model) => casinoAgentReady(model, slot),
    async (model, system) => {
      // Amounts resolve against the balance before the batch (what the agent knows when it sends it).
      const sent = elements.map((element) =>
        element.kind === 'bet'
          ? {
              element,
              amountMicro: resolveAmount(model, slot, element.choice, element.amount),
              clientSeed: newClientSeed(model, slot),
            }
          : { element, amountMicro: 50_000n, clientSeed: null },
      );
      const bets = sent.map(({ element, amountMicro, clientSeed }) =>
        element.kind === 'bet'
          ? {
              game: element.choice.game,
              amount: toNumber(amountMicro),
              ...paramsA(element.choice),
              client_seed: clientSeed,
            }
          : { game: element.game, amount: toNumber(amountMicro) },
      );
      const answer = await keyed(model, system, slot).casino.batch(bets);
      if (elements.length === 0) {
        expectAnswer(label, model, answer, { expected: { status: 400, code: 'BAD_REQUEST' } });
        return;
      }
      // expectAnswer throws unless the answer is one of the target's fault windows, which moved nothing.
      if (answer.status !== 200) return expectAnswer(label, model, answer, { expected: { status: 200 } });
      expectBatch(label, model, slot, sent, answer);
    },
  );
}

interface SentElement {
  readonly element: BatchElement;
  readonly amountMicro: bigint;
  readonly clientSeed: string | null;
}

/**
 * Walks the elements in order, as the casino processes them (each like a single bet, an error not
 * aborting the rest, each bet seeing the balance the earlier ones left), settling accepted bets in
 * the model as it goes: a mismatch ends the run, so a half-applied batch is never used again.
 */
function expectBatch(
  label: string,
  model: CheckModel,
  slot: number,
  sent: readonly SentElement[],
  answer: ApiResult<CasinoBody>,
): void {
  const results = field(answer.body, 'results');
  const items: Matcher[] = [];
  const problems: string[] = [];
  const totals = { won: 0, lost: 0, errors: 0, wageredMicro: 0n, wonMicro: 0n };
  sent.forEach(({ element, amountMicro, clientSeed }, index) => {
    const item = Array.isArray(results) ? (results[index] as unknown) : undefined;
    const answeredClosed = field(item, 'ok') === false && field(item, 'code') === 'GAME_CLOSED';
    const refusal =
      element.kind === 'bet'
        ? expectedBetRefusal(model, slot, element.choice, amountMicro, answeredClosed)
        : { status: 400, code: 'BAD_REQUEST' };
    if (element.kind === 'game' || refusal !== null) {
      totals.errors += 1;
      items.push(
        object({ index: eq(index), ok: eq(false), code: eq(refusal?.code ?? 'BAD_REQUEST'), ...refusal?.body }),
      );
      return;
    }
    const multiplier = inferMultiplier(element.choice, amountMicro, {
      style: 'A',
      value: field(item, 'payout_multiplier'),
    });
    if (typeof multiplier === 'string') {
      problems.push(
        `body.results[${index}].${multiplier}${field(item, 'ok') === false ? ` (${String(field(item, 'code'))}: ${String(field(item, 'error'))})` : ''}`,
      );
      return;
    }
    problems.push(
      ...detailProblems(element.choice, multiplier, field(item, 'result')).map(
        (problem) => `body.results[${index}].${problem}`,
      ),
    );
    const settled = settlementOf(model, slot, element.choice, amountMicro, multiplier, clientSeed);
    items.push(object({ index: eq(index), ok: eq(true), ...betBodyA(model, settled) }));
    if (settled.payoutMicro > amountMicro) totals.won += 1;
    else totals.lost += 1;
    totals.wageredMicro += amountMicro;
    totals.wonMicro += settled.payoutMicro;
    commitBet(model, settled, item as Record<string, unknown>, 'A');
  });
  if (problems.length > 0) casinoMismatch(label, model, problems);
  const placed = totals.won + totals.lost;
  const expected = {
    results: list(items),
    summary: object({
      total: eq(sent.length),
      won: eq(totals.won),
      lost: eq(totals.lost),
      errors: eq(totals.errors),
      total_wagered: money('A', totals.wageredMicro),
      total_won: money('A', totals.wonMicro),
      net_pnl: money('A', totals.wonMicro - totals.wageredMicro),
      win_rate_pct: eq(placed === 0 ? 0 : Math.round((totals.won * 10_000) / placed) / 100),
    }),
    balance_after: money('A', model.agents[slot]?.balanceMicro ?? 0n),
  };
  const found = compareAnswer(answer, { status: 200, body: expected }, model.timeToleranceMs);
  if (found.length > 0) casinoMismatch(label, model, found);
}
