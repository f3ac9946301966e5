/**
 * verify-bet: recomputes a casino bet from its revealed server seed, by the published procedure
 * of docs/fairness.md, with nothing but node:crypto — no afp code, so it checks afp rather than
 * agreeing with itself. test/docs/fairness-doc.test.ts runs it against the real game modules.
 *
 *   npx node scripts/verify-bet.ts --seed <server seed, 64 hex> --client-seed <text> --nonce <n> \
 *     --game <id> [--params '<JSON of the bet's parameters>'] [--commitment <server_seed_hash>]
 *
 * Prints JSON: the seed's commitment, the HMAC messages, block 0 (the bet's `result_hash`), the
 * outcome (the same fields as the bet's `result`) and the total-return multiplier, exact and as
 * a decimal. Exit 1 when the commitment does not match or the input is bad.
 * Games: the 17 ids of GET /api/v1/games, plus `crash_round` (a short-style crash round: client
 * seed "crash", params { cashed_out_at? }). Parameters are those the bet recorded (the audit
 * trail's `parameters`; a video-poker bet records its held positions).
 */
import { createHash, createHmac } from 'node:crypto';

// ---- The draws (docs/fairness.md "The random numbers") ------------------------------------

const TWO_POW_32 = 2 ** 32;

export class Draws {
  readonly messages: string[] = [];
  /** Block 0 in hex: the bet's `result_hash`. */
  firstBlockHex = '';
  private readonly words: number[] = [];
  private readonly seedHex: string;
  private readonly clientSeed: string;
  private readonly nonce: number;

  constructor(seedHex: string, clientSeed: string, nonce: number) {
    this.seedHex = seedHex;
    this.clientSeed = clientSeed;
    this.nonce = nonce;
    this.nextBlock();
  }

  /** Block k: HMAC-SHA256(key = seed hex text, "<client>:<nonce>" for k = 0, "<client>:<nonce>:<k>" after). */
  private nextBlock(): void {
    const block = this.messages.length;
    const message = block === 0 ? `${this.clientSeed}:${this.nonce}` : `${this.clientSeed}:${this.nonce}:${block}`;
    const digest = createHmac('sha256', this.seedHex).update(message).digest();
    this.messages.push(message);
    if (block === 0) this.firstBlockHex = digest.toString('hex');
    for (let index = 0; index < 8; index++) this.words.push(digest.readUInt32BE(index * 4));
  }

  uint32(): number {
    if (this.words.length === 0) this.nextBlock();
    return this.words.shift() as number;
  }

  /** Uniform in [0, n): words ≥ 2^32 − (2^32 mod n) are rejected. */
  int(n: number): number {
    const limit = TWO_POW_32 - (TWO_POW_32 % n);
    for (;;) {
      const word = this.uint32();
      if (word < limit) return word % n;
    }
  }

  /** Uniform in [0, 2^52): the first word, then the top 20 bits of the next. */
  fraction52(): bigint {
    const high = BigInt(this.uint32());
    return (high << 20n) | BigInt(this.uint32() >>> 12);
  }

  /** k distinct values of [0, n) in draw order: partial Fisher–Yates. */
  sample(n: number, k: number): number[] {
    const pool = Array.from({ length: n }, (_, index) => index);
    for (let index = 0; index < k; index++) {
      const pick = index + this.int(n - index);
      [pool[index], pool[pick]] = [pool[pick] as number, pool[index] as number];
    }
    return pool.slice(0, k);
  }
}

// ---- Exact fractions ------------------------------------------------------------------------

export interface Fraction {
  readonly num: bigint;
  readonly den: bigint;
}

function gcd(a: bigint, b: bigint): bigint {
  return b === 0n ? (a < 0n ? -a : a) : gcd(b, a % b);
}

export function fraction(num: bigint | number, den: bigint | number = 1n): Fraction {
  const n = BigInt(num);
  const d = BigInt(den);
  const g = gcd(n, d);
  return g > 1n ? { num: n / g, den: d / g } : { num: n, den: d };
}

/** "1.96" → 49/25. */
export function decimal(text: string): Fraction {
  const [whole = '0', part = ''] = text.split('.');
  return fraction(BigInt(whole + part), 10n ** BigInt(part.length));
}

/** The nearest double (the same rounding afp uses for the few floats of a result). */
export const toFloat = (value: Fraction): number => Number((value.num * 10n ** 18n) / value.den) / 1e18;

const ZERO = fraction(0);

/** C(n, k). */
function choose(n: number, k: number): bigint {
  let value = 1n;
  for (let index = 0; index < k; index++) value = (value * BigInt(n - index)) / BigInt(index + 1);
  return value;
}

/** The index of the first weight whose running total exceeds `value`. */
function firstAbove(weights: readonly number[], value: number): number {
  let running = 0;
  for (const [index, weight] of weights.entries()) {
    running += weight;
    if (value < running) return index;
  }
  throw new Error(`draw ${value} beyond the weights`);
}

// ---- Parameters -----------------------------------------------------------------------------

type Params = Readonly<Record<string, unknown>>;

function oneOf<T extends string>(params: Params, field: string, allowed: readonly T[]): T {
  const value = params[field];
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value))
    throw new Error(`${field} must be one of ${allowed.join(', ')}`);
  return value as T;
}

function integer(params: Params, field: string, min: number, max: number): number {
  const value = params[field];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
    throw new Error(`${field} must be an integer from ${min} to ${max}`);
  return value;
}

/** A multiplier with at most two decimals (2, 1.5, 7.77) in cents. */
function cents(params: Params, field: string): number {
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(String(params[field]));
  if (match === null) throw new Error(`${field} must be a number with at most two decimals`);
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

// ---- Cards ----------------------------------------------------------------------------------

/** Card 0..51: rank index card mod 13 (A 2 … 9 T J Q K), suit floor(card / 13) (S H D C). */
const cardCode = (card: number): string =>
  `${'A23456789TJQK'.charAt(card % 13)}${'SHDC'.charAt(Math.floor(card / 13))}`;
const rankOf = (card: number): number => (card % 13) + 1;
const pointValue = (card: number): number => Math.min(rankOf(card), 10);

// ---- The games (docs/fairness.md "The games") -----------------------------------------------

export interface Outcome {
  readonly multiplier: Fraction;
  readonly detail: Record<string, unknown>;
}

type Game = (params: Params, draws: Draws) => Outcome;

const CRASH_MAX_CENTS = 100_000_000n;
const TWO_POW_52 = 1n << 52n;

/** floor_to_cents(0.995 / (1 − k / 2^52)), at most 1,000,000.00x. */
export function crashCents(draws: Draws): number {
  const value = (995n * TWO_POW_52) / (10n * (TWO_POW_52 - draws.fraction52()));
  return Number(value > CRASH_MAX_CENTS ? CRASH_MAX_CENTS : value);
}

const RED = new Set([1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36]);
const ROULETTE_BETS: Readonly<Record<string, readonly [payout: string, wins: (pocket: number) => boolean]>> = {
  red: ['1.96', (p) => RED.has(p)],
  black: ['1.96', (p) => !RED.has(p)],
  odd: ['1.96', (p) => p % 2 === 1],
  even: ['1.96', (p) => p % 2 === 0],
  low: ['1.96', (p) => p <= 18],
  high: ['1.96', (p) => p >= 19],
  dozen_1: ['2.94', (p) => p <= 12],
  dozen_2: ['2.94', (p) => p >= 13 && p <= 24],
  dozen_3: ['2.94', (p) => p >= 25],
  column_1: ['2.94', (p) => p % 3 === 1],
  column_2: ['2.94', (p) => p % 3 === 2],
  column_3: ['2.94', (p) => p % 3 === 0],
};

function roulette(params: Params, draws: Draws): Outcome {
  const betType = oneOf(params, 'bet_type', ['number', ...Object.keys(ROULETTE_BETS)]);
  const betValue = betType === 'number' ? integer(params, 'bet_value', 0, 36) : null;
  const pocket = draws.int(37);
  const color = pocket === 0 ? 'green' : RED.has(pocket) ? 'red' : 'black';
  const [payout, wins] =
    betType === 'number'
      ? (['34.3', (p: number) => p === betValue] as const)
      : (ROULETTE_BETS[betType] as readonly [string, (p: number) => boolean]);
  const won = betType === 'number' ? wins(pocket) : pocket !== 0 && wins(pocket);
  return {
    multiplier: won ? decimal(payout) : ZERO,
    detail: { number: pocket, color, bet_type: betType, bet_value: betValue },
  };
}

/** Edge bin to centre bin; bin k and bin rows − k pay alike. */
export const PLINKO_HALF_TABLES: Readonly<Record<string, readonly string[]>> = {
  '8:low': ['5.6', '2', '1.1', '1', '0.45'],
  '8:medium': ['11.5', '3.1', '1.3', '0.7', '0.35'],
  '8:high': ['29', '3.8', '1.4', '0.3', '0.25'],
  '12:low': ['10', '3.1', '1.5', '1.3', '1.2', '0.95', '0.45'],
  '12:medium': ['33.5', '10.5', '3.8', '1.9', '1.1', '0.6', '0.3'],
  '12:high': ['170', '23', '8', '2', '0.65', '0.2', '0.2'],
  '16:low': ['16.5', '8.6', '2.1', '1.4', '1.3', '1.2', '1', '1', '0.55'],
  '16:medium': ['115', '41', '9.8', '4.9', '3.1', '1.4', '1', '0.5', '0.25'],
  '16:high': ['1000', '135', '26', '8.6', '3.9', '2', '0.2', '0.2', '0.15'],
};

function plinko(params: Params, draws: Draws): Outcome {
  const rows = params['rows'];
  const risk = oneOf(params, 'risk', ['low', 'medium', 'high']);
  const half = PLINKO_HALF_TABLES[`${String(rows)}:${risk}`];
  if (typeof rows !== 'number' || half === undefined) throw new Error('rows must be 8, 12 or 16');
  let path = '';
  for (let row = 0; row < rows; row++) path += draws.int(2) === 1 ? 'R' : 'L';
  const bin = path.split('R').length - 1;
  return { multiplier: decimal(half[Math.min(bin, rows - bin)] as string), detail: { rows, risk, path, bin } };
}

export const SLOTS_SYMBOLS = ['7', 'BAR', 'BELL', 'CHERRY', 'LEMON', 'ORANGE', 'GRAPE'];
/** Stops per symbol on each reel (of 100). */
export const SLOTS_WEIGHTS = [3, 6, 14, 35, 14, 14, 14];
/** Highest first: the first line that matches pays. */
export const SLOTS_LINES: ReadonlyArray<
  readonly [name: string, multiplier: number, matches: (r: readonly string[]) => boolean]
> = [
  ['three_7', 250, (r) => r.every((s) => s === '7')],
  ['three_bar', 50, (r) => r.every((s) => s === 'BAR')],
  ['three_bell', 25, (r) => r.every((s) => s === 'BELL')],
  ['three_cherry', 10, (r) => r.every((s) => s === 'CHERRY')],
  ['three_lemon', 5, (r) => r.every((s) => s === 'LEMON')],
  ['three_orange', 5, (r) => r.every((s) => s === 'ORANGE')],
  ['three_grape', 5, (r) => r.every((s) => s === 'GRAPE')],
  ['bar_bar', 5, (r) => r[0] === 'BAR' && r[1] === 'BAR'],
  ['two_cherry', 2, (r) => r[0] === 'CHERRY' && r[1] === 'CHERRY'],
  ['one_cherry', 1, (r) => r[0] === 'CHERRY'],
];

function slots(_params: Params, draws: Draws): Outcome {
  const stops = [draws.int(100), draws.int(100), draws.int(100)];
  const reels = stops.map((stop) => SLOTS_SYMBOLS[firstAbove(SLOTS_WEIGHTS, stop)] as string);
  const line = SLOTS_LINES.find(([, , matches]) => matches(reels));
  return {
    multiplier: line === undefined ? ZERO : fraction(line[1]),
    detail: { stops, reels, line: line?.[0] ?? null },
  };
}

/** paytable[spots][hits] (unlisted: 0). */
export const KENO_PAYTABLE: Readonly<Record<number, Readonly<Record<number, string>>>> = {
  1: { 1: '3.5' },
  2: { 2: '16' },
  3: { 2: '2', 3: '50' },
  4: { 2: '1', 3: '5', 4: '160' },
  5: { 3: '3', 4: '25', 5: '570' },
  6: { 3: '2', 4: '7', 5: '75', 6: '1800' },
  7: { 3: '1', 4: '4', 5: '25', 6: '250', 7: '5500' },
  8: { 4: '2', 5: '13', 6: '100', 7: '1200', 8: '20000' },
  9: { 4: '1', 5: '5', 6: '45', 7: '350', 8: '4500', 9: '50000' },
  10: { 5: '10', 6: '15', 7: '70', 8: '500', 9: '5000', 10: '250000' },
};

function keno(params: Params, draws: Draws): Outcome {
  const picks = params['picks'];
  if (!Array.isArray(picks) || picks.length < 1 || picks.length > 10)
    throw new Error('picks must hold 1 to 10 numbers from 1 to 80');
  const drawn = draws.sample(80, 20).map((index) => index + 1);
  const hits = (picks as number[]).filter((pick) => drawn.includes(pick));
  const pays = KENO_PAYTABLE[picks.length]?.[hits.length];
  return {
    multiplier: pays === undefined ? ZERO : decimal(pays),
    detail: { picks: [...(picks as number[])], drawn, hits, hit_count: hits.length },
  };
}

export const SCRATCH_SYMBOLS = ['diamond', 'seven', 'star', 'clover', 'bell', 'cherry'];
/** Cards per 10,000: the six triples (symbol order), pair, no win. */
export const SCRATCH_CLASSES: ReadonlyArray<readonly [name: string, multiplier: number, weight: number]> = [
  ['triple_diamond', 50, 10],
  ['triple_seven', 20, 30],
  ['triple_star', 15, 50],
  ['triple_clover', 12, 80],
  ['triple_bell', 8, 120],
  ['triple_cherry', 5, 200],
  ['pair', 2, 2115],
  ['none', 0, 7395],
];

function scratchCard(_params: Params, draws: Draws): Outcome {
  const classDraw = draws.int(10_000);
  const index = firstAbove(
    SCRATCH_CLASSES.map(([, , weight]) => weight),
    classDraw,
  );
  const [name, multiplier] = SCRATCH_CLASSES[index] as readonly [string, number, number];
  let symbols: string[];
  if (index < 6) symbols = [0, 1, 2].map(() => SCRATCH_SYMBOLS[index] as string);
  else if (name === 'pair') {
    const paired = draws.int(6);
    const others = SCRATCH_SYMBOLS.filter((_, symbol) => symbol !== paired);
    const odd = others[draws.int(5)] as string;
    symbols = [0, 1, 2].map(() => SCRATCH_SYMBOLS[paired] as string);
    symbols[draws.int(3)] = odd;
  } else symbols = draws.sample(6, 3).map((symbol) => SCRATCH_SYMBOLS[symbol] as string);
  return {
    multiplier: fraction(multiplier),
    detail: { class_draw: classDraw, symbols, line: name === 'none' ? null : name },
  };
}

export const WHEEL_SECTORS: ReadonlyArray<readonly [label: string, multiplier: string, percent: number]> = [
  ['BUST', '0', 35],
  ['0.5x', '0.5', 25],
  ['1x', '1', 15],
  ['1.5x', '1.5', 10],
  ['2x', '2', 8],
  ['3x', '3', 4],
  ['5x', '5', 2],
  ['10x', '10', 1],
];

function wheel(_params: Params, draws: Draws): Outcome {
  const roll = draws.int(100);
  const sector = firstAbove(
    WHEEL_SECTORS.map(([, , percent]) => percent),
    roll,
  );
  const [label, multiplier] = WHEEL_SECTORS[sector] as readonly [string, string, number];
  return { multiplier: decimal(multiplier), detail: { roll, sector, label } };
}

function mines(params: Params, draws: Draws): Outcome {
  const count = integer(params, 'mines', 1, 24);
  const reveals = integer(params, 'reveals', 1, 25 - count);
  const positions = draws.sample(25, count).sort((a, b) => a - b);
  const first = positions[0] as number;
  const hitCell = first < reveals ? first : null;
  // 0.975 / P(no mine in the first `reveals` cells) = 39/40 × C(25, reveals) / C(25 − mines, reveals)
  const pays = fraction(39n * choose(25, reveals), 40n * choose(25 - count, reveals));
  return {
    multiplier: hitCell === null ? pays : ZERO,
    detail: { mines: count, reveals, mine_positions: positions, hit_cell: hitCell, won: hitCell === null },
  };
}

function hilo(params: Params, draws: Draws): Outcome {
  const guess = oneOf(params, 'guess', ['higher', 'lower']);
  const value = draws.int(44);
  const first = Math.floor(value / 11) * 13 + (1 + (value % 11)); // rank 2 + (v mod 11), suit floor(v / 11)
  const next = draws.int(52);
  const [firstRank, nextRank] = [rankOf(first), rankOf(next)];
  const winning = guess === 'higher' ? 13 - firstRank : firstRank - 1;
  const floored = Math.floor((96 * 12) / winning);
  const winMultiplier = fraction(Math.max(floored, 105), 100);
  const won = guess === 'higher' ? nextRank > firstRank : nextRank < firstRank;
  const outcome = nextRank === firstRank ? 'push' : won ? 'win' : 'lose';
  const multiplier = outcome === 'push' ? fraction(1) : won ? winMultiplier : ZERO;
  return {
    multiplier,
    detail: {
      guess,
      first_card: cardCode(first),
      next_card: cardCode(next),
      win_multiplier: toFloat(winMultiplier),
      outcome,
    },
  };
}

/** Blackjack totals: [total, soft]. */
function handTotal(cards: readonly number[]): [number, boolean] {
  const hard = cards.reduce((sum, card) => sum + pointValue(card), 0);
  return cards.some((card) => rankOf(card) === 1) && hard + 10 <= 21 ? [hard + 10, true] : [hard, false];
}

const finalTotal = (cards: readonly number[]): number => Math.min(handTotal(cards)[0], 22);

/** The published chart of action "hit" (docs/fairness.md). */
function chartHits(cards: readonly number[], up: number): boolean {
  const [total, soft] = handTotal(cards);
  if (soft) return total <= 17 || (total === 18 && (up === 1 || up >= 9));
  if (total <= 11) return true;
  if (total === 12) return !(up >= 4 && up <= 6);
  return total <= 16 && (up === 1 || up >= 7);
}

function blackjack(params: Params, draws: Draws): Outcome {
  const action = oneOf(params, 'action', ['hit', 'stand', 'double']);
  const [p1, up, p2, hole] = [draws.int(52), draws.int(52), draws.int(52), draws.int(52)];
  const player = [p1, p2];
  const dealer = [up, hole];
  const natural = (cards: readonly number[]): boolean => handTotal(cards)[0] === 21;
  const view = (multiplier: Fraction, outcome: string): Outcome => ({
    multiplier,
    detail: {
      action,
      player_cards: player.map(cardCode),
      dealer_cards: dealer.map(cardCode),
      player_total: handTotal(player)[0],
      player_soft: handTotal(player)[1],
      dealer_total: handTotal(dealer)[0],
      outcome,
    },
  });
  if (natural(player) || natural(dealer)) {
    if (natural(player) && natural(dealer)) return view(fraction(1), 'push');
    return natural(player) ? view(fraction(5, 2), 'player_blackjack') : view(ZERO, 'dealer_blackjack');
  }
  const draws1 = (): boolean =>
    finalTotal(player) < 21 &&
    (action === 'double' ? player.length === 2 : action === 'hit' && chartHits(player, pointValue(up)));
  while (draws1()) player.push(draws.int(52));
  const playerFinal = finalTotal(player);
  if (playerFinal !== 22) while (handTotal(dealer)[0] < 17) dealer.push(draws.int(52));
  const dealerFinal = finalTotal(dealer);
  if (playerFinal === 22) return view(ZERO, 'player_bust');
  if (dealerFinal === 22) return view(fraction(2), 'dealer_bust');
  if (playerFinal > dealerFinal) return view(fraction(2), 'player_higher');
  return playerFinal === dealerFinal ? view(fraction(1), 'push') : view(ZERO, 'dealer_higher');
}

const baccaratTotal = (cards: readonly number[]): number =>
  cards.reduce((sum, card) => sum + (pointValue(card) % 10), 0) % 10;

/** The banker's third-card rule; `p` is the player's third card value, null if the player stood. */
function bankerDraws(banker: number, p: number | null): boolean {
  if (p === null) return banker <= 5;
  return (
    banker <= 2 ||
    (banker === 3 && p !== 8) ||
    (banker === 4 && p >= 2 && p <= 7) ||
    (banker === 5 && p >= 4 && p <= 7) ||
    (banker === 6 && (p === 6 || p === 7))
  );
}

function baccarat(params: Params, draws: Draws): Outcome {
  const betOn = oneOf(params, 'bet_on', ['player', 'banker', 'tie']);
  const first = [draws.int(52), draws.int(52), draws.int(52), draws.int(52)];
  const player = [first[0] as number, first[2] as number];
  const banker = [first[1] as number, first[3] as number];
  if (baccaratTotal(player) < 8 && baccaratTotal(banker) < 8) {
    let third: number | null = null;
    if (baccaratTotal(player) <= 5) {
      player.push(draws.int(52));
      third = pointValue(player[2] as number) % 10;
    }
    if (bankerDraws(baccaratTotal(banker), third)) banker.push(draws.int(52));
  }
  const [pt, bt] = [baccaratTotal(player), baccaratTotal(banker)];
  const winner = pt > bt ? 'player' : bt > pt ? 'banker' : 'tie';
  const pays: Readonly<Record<string, string>> = { player: '2', banker: '1.95', tie: '9' };
  const multiplier = winner === betOn ? decimal(pays[betOn] as string) : winner === 'tie' ? fraction(1) : ZERO;
  const outcome = winner === betOn ? 'win' : winner === 'tie' ? 'push' : 'lose';
  return {
    multiplier,
    detail: {
      bet_on: betOn,
      player_cards: player.map(cardCode),
      banker_cards: banker.map(cardCode),
      player_total: pt,
      banker_total: bt,
      winner,
      outcome,
    },
  };
}

export const POKER_HANDS = [
  'nothing',
  'jacks_or_better',
  'two_pair',
  'three_of_a_kind',
  'straight',
  'flush',
  'full_house',
  'four_of_a_kind',
  'straight_flush',
  'royal_flush',
];
export const POKER_PAYS = [0, 1, 2, 3, 4, 6, 9, 25, 50, 800];

/** Jacks or Better: the class index of five cards. */
function pokerHand(cards: readonly number[]): number {
  const ranks = cards.map((card) => card % 13).sort((a, b) => a - b);
  const counts = [...new Set(ranks)].map((rank) => ranks.filter((r) => r === rank).length).sort((a, b) => b - a);
  const flush = cards.every((card) => Math.floor(card / 13) === Math.floor((cards[0] as number) / 13));
  const broadway = ranks.join() === '0,9,10,11,12';
  const straight = counts.length === 5 && (broadway || (ranks[4] as number) - (ranks[0] as number) === 4);
  if (straight && flush) return broadway ? 9 : 8;
  if (counts[0] === 4) return 7;
  if (counts[0] === 3) return counts[1] === 2 ? 6 : 3;
  if (flush) return 5;
  if (straight) return 4;
  if (counts[0] === 2)
    return counts[1] === 2
      ? 2
      : ranks.some((rank, index) => ranks.indexOf(rank) !== index && (rank === 0 || rank >= 10))
        ? 1
        : 0;
  return 0;
}

function videoPoker(params: Params, draws: Draws): Outcome {
  const cards = draws.sample(52, 10);
  const hand = cards.slice(0, 5);
  const holds = params['holds'];
  if (!Array.isArray(holds) || !holds.every((position) => Number.isInteger(position) && position >= 0 && position <= 4))
    throw new Error('holds must be the held positions 0 to 4 (as the bet records them)');
  const held = [...new Set(holds as number[])].sort((a, b) => a - b);
  let next = 5;
  const final = hand.map((card, position) => (held.includes(position) ? card : (cards[next++] as number)));
  const handClass = pokerHand(final);
  const multiplier = fraction(POKER_PAYS[handClass] as number);
  return {
    multiplier,
    detail: {
      dealt_cards: hand.map(cardCode),
      held_positions: held,
      held_cards: held.map((position) => cardCode(hand[position] as number)),
      final_cards: final.map(cardCode),
      hand: POKER_HANDS[handClass],
      pays: toFloat(multiplier),
    },
  };
}

export const GAMES: Readonly<Record<string, Game>> = {
  coin_flip(params, draws) {
    const side = oneOf(params, 'side', ['heads', 'tails']);
    const outcome = draws.int(2) === 0 ? 'heads' : 'tails';
    return { multiplier: outcome === side ? decimal('1.96') : ZERO, detail: { side, outcome } };
  },
  dice(params, draws) {
    const direction = oneOf(params, 'direction', ['over', 'under']);
    const threshold = integer(params, 'threshold', 1, 99);
    const roll = draws.int(100) + 1;
    const win = direction === 'over' ? roll > threshold : roll < threshold;
    const winningRolls = direction === 'over' ? 100 - threshold : threshold - 1;
    return { multiplier: win ? fraction(98, winningRolls) : ZERO, detail: { roll, direction, threshold, win } };
  },
  simple_dice(params, draws) {
    const pick = integer(params, 'pick', 1, 6);
    const die = draws.int(6) + 1;
    return { multiplier: die === pick ? decimal('5.5') : ZERO, detail: { pick, die } };
  },
  multiplier(params, draws) {
    const target = cents(params, 'target_multiplier');
    const crash = crashCents(draws);
    const win = crash > target;
    return {
      multiplier: win ? fraction(target, 100) : ZERO,
      detail: { crash_point: crash / 100, target_multiplier: target / 100, win },
    };
  },
  roulette,
  custom(params, draws) {
    const winProbability = integer(params, 'win_probability', 1, 99);
    const roll = draws.int(100);
    const win = roll < winProbability;
    return {
      multiplier: win ? fraction(98, winProbability) : ZERO,
      detail: { roll, win_probability: winProbability, win },
    };
  },
  blackjack,
  crash(params, draws) {
    const cashOut = cents(params, 'cash_out_at');
    const crash = crashCents(draws);
    const win = crash >= cashOut;
    return {
      multiplier: win ? fraction(cashOut, 100) : ZERO,
      detail: { crash_point: crash / 100, cash_out_at: cashOut / 100, win },
    };
  },
  plinko,
  slots,
  hilo,
  keno,
  scratch_card: scratchCard,
  video_poker: videoPoker,
  wheel,
  mines,
  baccarat,
  crash_round(params, draws) {
    const crash = crashCents(draws);
    const cashed =
      params['cashed_out_at'] === undefined || params['cashed_out_at'] === null ? null : cents(params, 'cashed_out_at');
    const multiplier = cashed !== null && cashed <= crash ? fraction(cashed, 100) : ZERO;
    return { multiplier, detail: { crash_point: crash / 100, cashed_out_at: cashed === null ? null : cashed / 100 } };
  },
};

// ---- Verification ---------------------------------------------------------------------------

export interface BetToVerify {
  readonly serverSeed: string;
  readonly clientSeed: string;
  readonly nonce: number;
  readonly game: string;
  readonly params: Params;
}

export interface Verified extends Outcome {
  readonly serverSeedHash: string;
  readonly resultHash: string;
  readonly messages: readonly string[];
}

export function verifyBet(bet: BetToVerify): Verified {
  if (!/^[0-9a-f]{64}$/.test(bet.serverSeed)) throw new Error('the server seed is 64 lowercase hex characters');
  const game = GAMES[bet.game];
  if (game === undefined) throw new Error(`game must be one of: ${Object.keys(GAMES).join(', ')}`);
  const draws = new Draws(bet.serverSeed, bet.clientSeed, bet.nonce);
  const outcome = game(bet.params, draws);
  return {
    ...outcome,
    serverSeedHash: createHash('sha256').update(bet.serverSeed).digest('hex'),
    resultHash: draws.firstBlockHex,
    messages: [...draws.messages],
  };
}

function flag(argv: readonly string[], name: string): string | undefined {
  const index = argv.indexOf(`--${name}`);
  return index >= 0 ? argv[index + 1] : undefined;
}

function main(argv: readonly string[]): number {
  const nonce = Number(flag(argv, 'nonce'));
  const bet: BetToVerify = {
    serverSeed: flag(argv, 'seed') ?? '',
    clientSeed: flag(argv, 'client-seed') ?? '',
    nonce,
    game: flag(argv, 'game') ?? '',
    params: JSON.parse(flag(argv, 'params') ?? '{}') as Params,
  };
  if (!Number.isSafeInteger(nonce) || nonce < 0) throw new Error('--nonce must be a non-negative integer');
  const verified = verifyBet(bet);
  const commitment = flag(argv, 'commitment');
  const report = {
    server_seed_hash: verified.serverSeedHash,
    commitment_matches: commitment === undefined ? null : commitment === verified.serverSeedHash,
    hmac_messages: verified.messages,
    result_hash: verified.resultHash,
    game: bet.game,
    params: bet.params,
    result: verified.detail,
    payout_multiplier:
      verified.multiplier.den === 1n
        ? `${verified.multiplier.num}`
        : `${verified.multiplier.num}/${verified.multiplier.den}`,
    payout_multiplier_decimal: toFloat(verified.multiplier),
  };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  return report.commitment_matches === false ? 1 : 0;
}

if (import.meta.main) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`verify-bet: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
