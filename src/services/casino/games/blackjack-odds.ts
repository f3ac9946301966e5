/**
 * Exact distribution of blackjack's total-return multiplier per action, by recursion over the
 * infinite shoe, exactly (no sampling).
 *
 * Card values: A = 1 and 2–9 each with probability 1/13, ten-valued with 4/13. For each dealer up
 * card the dealer's final total (natural, 17–21, bust) is enumerated over the hole card and the
 * dealer's draws; for each pair of player cards the player's final total is enumerated through
 * the same `playerDraws` the dealt hands use; the two are independent given the up card.
 * Everything is memoised per (state, up card). The probabilities are ShoeFractions (integers over
 * powers of 13, reduced once at the end: shoe-fraction.ts says why); all actions take about 0.1 s.
 */
import { compare, type Ratio } from '../../../core/ratio.ts';
import type { Chance } from './game.ts';
import {
  EMPTY_HAND,
  addValue,
  dealerHits,
  finalTotal,
  isNaturalPair,
  playerDraws,
  handMultiplier,
  settleNaturals,
  type BlackjackAction,
  type HandState,
} from './blackjack-rules.ts';
import {
  SHOE_ONE as ONE,
  SHOE_ZERO as ZERO,
  shoeAdd as add,
  shoeMul as mul,
  shoeRatio,
  shoeSub as sub,
  type ShoeFraction,
} from './shoe-fraction.ts';

/** Final total (17–21 or BUST for the dealer, 4–21 or BUST for the player) → probability. */
type TotalLaw = Map<number, ShoeFraction>;

const VALUES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] as const;
const CHANCE_OF_TEN: ShoeFraction = { num: 4n, exp: 1 };
const CHANCE_OF_OTHER: ShoeFraction = { num: 1n, exp: 1 };
const valueChance = (value: number): ShoeFraction => (value === 10 ? CHANCE_OF_TEN : CHANCE_OF_OTHER);

function addTo<K>(law: Map<K, ShoeFraction>, key: K, probability: ShoeFraction): void {
  law.set(key, add(law.get(key) ?? ZERO, probability));
}

const dealerMemo = new Map<string, TotalLaw>();

/** The dealer's final-total law from a hand that is not a natural. */
function dealerFrom(hand: HandState): TotalLaw {
  const key = `${hand.hardSum}:${hand.hasAce}`;
  const cached = dealerMemo.get(key);
  if (cached !== undefined) return cached;
  const law: TotalLaw = new Map();
  if (!dealerHits(hand)) law.set(finalTotal(hand), ONE);
  else
    for (const value of VALUES) {
      for (const [total, probability] of dealerFrom(addValue(hand, value)))
        addTo(law, total, mul(valueChance(value), probability));
    }
  dealerMemo.set(key, law);
  return law;
}

interface DealerLaw {
  readonly natural: ShoeFraction;
  /** Final totals of the hands that are not naturals (probabilities sum to 1 − natural). */
  readonly totals: TotalLaw;
}

const dealerLawMemo = new Map<number, DealerLaw>();

function dealerLaw(upValue: number): DealerLaw {
  const cached = dealerLawMemo.get(upValue);
  if (cached !== undefined) return cached;
  let natural = ZERO;
  const totals: TotalLaw = new Map();
  for (const hole of VALUES) {
    if (isNaturalPair(upValue, hole)) {
      natural = add(natural, valueChance(hole));
      continue;
    }
    const start = addValue(addValue(EMPTY_HAND, upValue), hole);
    for (const [total, probability] of dealerFrom(start)) addTo(totals, total, mul(valueChance(hole), probability));
  }
  const law = { natural, totals };
  dealerLawMemo.set(upValue, law);
  return law;
}

/** The player's final-total law from `hand` after `drawn` extra cards. */
function playerFrom(
  action: BlackjackAction,
  hand: HandState,
  drawn: number,
  upValue: number,
  memo: Map<string, TotalLaw>,
): TotalLaw {
  const key = `${hand.hardSum}:${hand.hasAce}:${drawn === 0 ? 0 : 1}`;
  const cached = memo.get(key);
  if (cached !== undefined) return cached;
  const law: TotalLaw = new Map();
  if (!playerDraws(action, hand, drawn, upValue)) law.set(finalTotal(hand), ONE);
  else
    for (const value of VALUES) {
      for (const [total, probability] of playerFrom(action, addValue(hand, value), drawn + 1, upValue, memo)) {
        addTo(law, total, mul(valueChance(value), probability));
      }
    }
  memo.set(key, law);
  return law;
}

/** Multiplier text → { multiplier, probability }: an exact law under construction. */
class LawBuilder {
  private readonly entries = new Map<string, { multiplier: Ratio; probability: ShoeFraction }>();
  add(multiplier: Ratio, probability: ShoeFraction): void {
    const key = `${multiplier.num}/${multiplier.den}`;
    const entry = this.entries.get(key);
    this.entries.set(key, {
      multiplier,
      probability: entry === undefined ? probability : add(entry.probability, probability),
    });
  }
  /** Ascending multipliers. */
  chances(): Chance[] {
    return [...this.entries.values()]
      .sort((a, b) => compare(a.multiplier, b.multiplier))
      .map(({ multiplier, probability }) => [shoeRatio(probability), multiplier] as const);
  }
}

/** Adds the outcomes of one deal (player's two values, up card), weighted by `chance`. */
function addDeal(
  law: LawBuilder,
  action: BlackjackAction,
  deal: { first: number; second: number; upValue: number; chance: ShoeFraction },
  memo: Map<string, TotalLaw>,
): void {
  const { first, second, upValue, chance } = deal;
  const dealer = dealerLaw(upValue);
  if (isNaturalPair(first, second)) {
    law.add(settleNaturals(true, true), mul(chance, dealer.natural));
    law.add(settleNaturals(true, false), mul(chance, sub(ONE, dealer.natural)));
    return;
  }
  law.add(settleNaturals(false, true), mul(chance, dealer.natural));
  const start = addValue(addValue(EMPTY_HAND, first), second);
  for (const [playerTotal, playerChance] of playerFrom(action, start, 0, upValue, memo)) {
    for (const [dealerTotal, dealerChance] of dealer.totals) {
      law.add(handMultiplier(playerTotal, dealerTotal), mul(chance, mul(playerChance, dealerChance)));
    }
  }
}

/** Exact law of the multiplier for one action over every deal: multipliers 0, 1, 2, 5/2 ascending. */
export function blackjackLaw(action: BlackjackAction): Chance[] {
  const law = new LawBuilder();
  for (const upValue of VALUES) {
    const memo = new Map<string, TotalLaw>();
    for (const first of VALUES)
      for (const second of VALUES) {
        const chance = mul(valueChance(upValue), mul(valueChance(first), valueChance(second)));
        addDeal(law, action, { first, second, upValue, chance }, memo);
      }
  }
  return law.chances();
}

/** The law given the player's two card values and the dealer's up value (the hole card unseen). */
export function blackjackLawGiven(action: BlackjackAction, first: number, second: number, upValue: number): Chance[] {
  const law = new LawBuilder();
  addDeal(law, action, { first, second, upValue, chance: ONE }, new Map());
  return law.chances();
}
