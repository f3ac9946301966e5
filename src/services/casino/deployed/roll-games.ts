/**
 * The deployed casino's games of one roll r (spec/DEPLOYED.md §2.5): coin flip, dice, multiplier,
 * crash, roulette, custom, simple dice and the wheel, each with its payout rule (DeployedCasinoRules) and the deployment's
 * double arithmetic (round2/round4 = Math.round(x·10^d)/10^d). Multipliers are total return.
 * `roll` in a result is round2(r), as the deployment writes it. Roulette's bet types and which pocket
 * wins them are the European wheel's (games/roulette.ts); only its payouts and roll mapping differ.
 * `win_probability` (dice, multiplier, crash, roulette) is the answer's own statement, written as
 * DEPLOYED.md §2.5 and §2.8 give it, round4 (docs/decisions/deployed-dialect.md); the scheme never
 * compares it as an outcome (deployed-scheme.ts).
 */
import type { DeployedGameRules, WheelCompare } from './deployed-casino-rules.ts';
import { choiceParam, isUnreadable, numberParam, oneRollRule, paidIf, type DeployedRule } from './deployed-rule.ts';
import { round2, round4 } from './deployed-roll.ts';
import { RED_NUMBERS, ROULETTE_BET_TYPES, rouletteWins, type RouletteBetType } from '../games/roulette.ts';

export const coinFlipRule = ({ payout, headsBelow }: DeployedGameRules['coin_flip']): DeployedRule =>
  oneRollRule(
    'coin_flip',
    (params) => choiceParam(params, 'side', ['heads', 'tails'] as const, 'heads'),
    (side, roll) => {
      const outcome = roll < headsBelow ? 'heads' : 'tails';
      return paidIf(outcome === side, payout, { side_chosen: side, outcome, roll: round2(roll) });
    },
  );

interface DiceParams {
  readonly direction: 'over' | 'under';
  readonly threshold: number;
}

export const diceRule = ({ edgeFactor }: DeployedGameRules['dice']): DeployedRule =>
  oneRollRule<DiceParams>(
    'dice',
    (params) => {
      const direction = choiceParam(params, 'direction', ['over', 'under'] as const, 'over');
      const threshold = numberParam(params, 'threshold', { min: 1, max: 99, fallback: 50 });
      return isUnreadable(direction) ? direction : isUnreadable(threshold) ? threshold : { direction, threshold };
    },
    ({ direction, threshold }, roll) => {
      const p = direction === 'over' ? (100 - threshold) / 100 : threshold / 100;
      const value = Math.floor(roll) + 1;
      const won = direction === 'over' ? value > threshold : value < threshold;
      return paidIf(won, round4((1 / p) * edgeFactor), {
        direction,
        threshold,
        dice_value: value,
        win_probability: round4(p),
        roll: round2(roll),
      });
    },
  );

/** The crash point of r: 10000 at r ≥ 99.99, else round2(edgeFactor / (1 − r/100)) (the deployment: 0.995), at least 1.00. */
export function crashPointOf(roll: number, edgeFactor: number): number {
  return roll >= 99.99 ? 10_000 : Math.max(1, round2(edgeFactor / (1 - roll / 100)));
}

export const multiplierRule = ({ edgeFactor }: DeployedGameRules['multiplier']): DeployedRule =>
  oneRollRule(
    'multiplier',
    (params) => numberParam(params, 'target_multiplier', { min: 1.01, max: 1000, fallback: 2 }),
    (target, roll) => {
      const crash = crashPointOf(roll, edgeFactor);
      return paidIf(crash >= target, target, {
        target_multiplier: target,
        crash_point: crash,
        win_probability: round4(edgeFactor / target),
        roll: round2(roll),
      });
    },
  );

export const crashRule = ({ edgeFactor }: DeployedGameRules['crash']): DeployedRule =>
  oneRollRule(
    'crash',
    (params) => numberParam(params, 'cash_out_at', { min: 1.01, max: 100, fallback: 2 }),
    (cashOut, roll) => {
      const crash = crashPointOf(roll, edgeFactor);
      return paidIf(crash >= cashOut, cashOut, {
        cash_out_at: cashOut,
        crash_point: crash,
        cashed_out: crash >= cashOut,
        win_probability: round4(edgeFactor / cashOut),
        roll: round2(roll),
      });
    },
  );

export const customRule = ({ edgeFactor }: DeployedGameRules['custom']): DeployedRule =>
  oneRollRule(
    'custom',
    (params) => numberParam(params, 'win_probability', { min: 1, max: 99, fallback: 50 }),
    (percent, roll) => {
      const payout = round4((100 / percent) * edgeFactor);
      return paidIf(roll < percent, payout, {
        win_probability_pct: percent,
        payout_multiplier: payout,
        roll: round2(roll),
        threshold: percent,
      });
    },
  );

/**
 * Simple dice's answer (DEPLOYED.md §2.5: `pick, rolled, won, payout_if_win, house_edge_pct, note`):
 * `house_edge_pct` one figure for the whole game, 1 − payout / 6 in percent (round2: 8.33 at 5.5×),
 * the mean over the six picks, whose own edges differ (picks 1–4 hit 17 in 100, 5–6 16);
 * `payout_if_win` the label "5.5x" and `note` free text, neither fixed by DEPLOYED.md (never compared).
 */
export const simpleDiceRule = ({ payout, statedEdgePct }: DeployedGameRules['simple_dice']): DeployedRule => {
  const statedPct = statedEdgePct ?? round2((1 - payout / 6) * 100);
  const note = `Pick 1-6; a match pays ${String(payout)}x`;
  return oneRollRule(
    'simple_dice',
    (params) => numberParam(params, 'pick', { min: 1, max: 6, fallback: 3, integer: true }),
    (pick, roll) => {
      const rolled = (Math.floor(roll) % 6) + 1;
      return paidIf(rolled === pick, payout, {
        pick,
        rolled,
        won: rolled === pick,
        payout_if_win: `${String(payout)}x`,
        house_edge_pct: statedPct,
        note,
      });
    },
  );
};

const roulettePayout = (payouts: DeployedGameRules['roulette'], bet: RouletteBetType): number =>
  bet === 'number'
    ? payouts.number
    : bet.startsWith('dozen') || bet.startsWith('column')
      ? payouts.dozenColumn
      : payouts.evenMoney;

const POCKETS = 37;

/** The pocket's colour as the answer names it: the reds of §2.5, `green` for 0 (not fixed by DEPLOYED.md), `black` otherwise. */
const colorOf = (pocket: number): string => (pocket === 0 ? 'green' : RED_NUMBERS.has(pocket) ? 'red' : 'black');

/** The stated chance of a bet: its winning pockets of 37 (§2.8's 1/37, 18/37, 12/37), round4. */
function rouletteWinProbability(bet: RouletteBetType, value: number | null): number {
  let winning = 0;
  for (let pocket = 0; pocket < POCKETS; pocket += 1)
    if (rouletteWins({ betType: bet, betValue: value }, pocket)) winning += 1;
  return round4(winning / POCKETS);
}

/**
 * `bet_value` echoes the number bet's pocket; other bets send none, and the answer's null there is
 * a value DEPLOYED.md does not fix (a null result field is never compared: deployed-rule.ts).
 */
export const rouletteRule = (payouts: DeployedGameRules['roulette']): DeployedRule =>
  oneRollRule<{ readonly bet: RouletteBetType; readonly value: number | null }>(
    'roulette',
    (params) => {
      const bet = choiceParam(params, 'bet_type', ROULETTE_BET_TYPES, 'red');
      if (isUnreadable(bet) || bet !== 'number') return isUnreadable(bet) ? bet : { bet, value: null };
      const value = numberParam(params, 'bet_value', { min: 0, max: 36, integer: true });
      return isUnreadable(value) ? value : { bet, value };
    },
    ({ bet, value }, roll) => {
      const n = Math.floor((roll * POCKETS) / 100);
      return paidIf(rouletteWins({ betType: bet, betValue: value }, n), roulettePayout(payouts, bet), {
        bet_type: bet,
        bet_value: value,
        number: n,
        color: colorOf(n),
        win_probability: rouletteWinProbability(bet, value),
        roll: round2(roll),
      });
    },
  );

/**
 * The first sector whose running total (a double, summed in order) exceeds the compared value;
 * none → BUST (0). `percent` compares r itself (the deployment), `fraction` compares r / 100.
 */
export function wheelMultiplierOf(roll: number, wheel: DeployedGameRules['wheel']): number {
  const compared = wheelCompared(roll, wheel.compare);
  let cumulative = 0;
  for (const [multiplier, probability] of wheel.sectors) {
    cumulative += probability;
    if (compared < cumulative) return multiplier;
  }
  return 0;
}

const wheelCompared = (roll: number, compare: WheelCompare): number => (compare === 'percent' ? roll : roll / 100);

/**
 * The edge the wheel's answers state (`house_edge_pct`, DEPLOYED.md §2.5): that of its sector
 * table as written (1 − Σ multiplier × probability, in percent, round2), whatever the compare:
 * the published table states 9.5 while the deployment's percent compare makes nearly every spin BUST.
 */
export function wheelStatedEdgePct(wheel: DeployedGameRules['wheel']): number {
  const returned = wheel.sectors.reduce((total, [multiplier, probability]) => total + multiplier * probability, 0);
  return round2((1 - returned) * 100);
}

/** A sector's name on the answer: BUST for 0, else the multiplier with an x ("0.5x"); not fixed by DEPLOYED.md. */
const sectorName = (multiplier: number): string => (multiplier === 0 ? 'BUST' : `${String(multiplier)}x`);

/**
 * The wheel's answer (§2.5: `sector, multiplier, won, house_edge_pct, wheel, note`): `wheel` states
 * the sector table as written (multiplier, probability on a 0–1 scale), `note` free text.
 */
export const wheelRule = (wheel: DeployedGameRules['wheel']): DeployedRule => {
  const statedPct = wheel.statedEdgePct ?? wheelStatedEdgePct(wheel);
  const table = wheel.sectors.map(([multiplier, probability]) => ({
    sector: sectorName(multiplier),
    multiplier,
    probability,
  }));
  const note = `Spin the wheel; ${String(statedPct)}% house edge`;
  return oneRollRule(
    'wheel',
    () => null,
    (_params, roll) => {
      const multiplier = wheelMultiplierOf(roll, wheel);
      return paidIf(multiplier > 0, multiplier, {
        sector: sectorName(multiplier),
        multiplier,
        won: multiplier > 0,
        house_edge_pct: statedPct,
        wheel: table,
        note,
      });
    },
  );
};
