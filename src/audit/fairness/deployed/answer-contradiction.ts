/**
 * Where a deployed bet's answer contradicts ITSELF: the facts its own result states (cells, cards,
 * counts, the number drawn, the table it publishes) against the outcome and payout the same answer
 * gives. No changed rule explains such an answer (a rule maps a draw to facts and facts to a payout;
 * it cannot pay a revealed mine), so the audits judge it critical (edge-audit.ts, fairness-audit.ts).
 *
 * Only facts are read, never wording: labels a deployment words freely (LABEL_FIELDS in
 * deployed-scheme.ts: blackjack's `outcome`, roulette's `color` case, keno's `matches` form) are
 * read as facts only where they spell one (a count, a colour name). A number and the string that
 * spells it are one value. A target that plays another consistent rule (another paytable it states
 * in `payout_table`, another wheel) shows no contradiction here: each check compares the answer
 * with its own statements, never with DEPLOYED.md's figures.
 * The parlay's check (its legs' facts, all_won, legs_won, its payout) is parlay-contradiction.ts.
 * Returns the contradiction in words naming the fields, or null (none, or the fields are absent).
 */
import type { JsonObject, JsonValue } from '../../../core/errors.ts';
import { RED_NUMBERS, ROULETTE_BET_TYPES, rouletteWins } from '../../../services/casino/games/roulette.ts';
import { formatDecimal } from '../../../core/money.ts';
import { numericValue } from '../field-differences.ts';
import { parlayContradiction } from './parlay-contradiction.ts';
import { creditedMultiplier, type ShownPayout } from './shown-paid.ts';

export type { ShownPayout } from './shown-paid.ts';

type Check = (result: JsonObject, shown: ShownPayout) => string | null;

const numberOf = (value: JsonValue | undefined): number | null => {
  const read = numericValue(value);
  return typeof read === 'number' && Number.isFinite(read) ? read : null;
};

const numbersOf = (value: JsonValue | undefined): number[] | null => {
  if (!Array.isArray(value)) return null;
  const read = value.map(numberOf);
  return read.every((item) => item !== null) ? (read as number[]) : null;
};

const paidSome = (shown: ShownPayout): boolean | null => {
  const paid = creditedMultiplier(shown);
  return paid === null ? null : paid > 0;
};

function paidText(shown: ShownPayout): string {
  const paid = creditedMultiplier(shown);
  if (paid === null) return `won ${String(shown.won)}`;
  const won = typeof shown.won === 'boolean' ? `won ${String(shown.won)}` : null;
  const amount =
    shown.paidMicro === undefined || shown.paidMicro === null ? null : `amount_won ${formatDecimal(shown.paidMicro)}`;
  const said = [won, amount].filter((part) => part !== null).join(', ');
  return `paid ×${String(Number(paid.toFixed(6)))}${said === '' ? '' : ` (${said})`}`;
}

/** Half a unit of a number's last written decimal place (5.54 → 0.005); 0 for a whole number or an exponent form. */
function halfUnitOf(value: number): number {
  const text = String(value);
  if (/e/i.test(text)) return 0;
  const places = text.split('.')[1]?.length ?? 0;
  return places === 0 ? 0 : 0.5 * 10 ** -places;
}

/**
 * Equal at the precision the answer writes: within the rounding a deployment's doubles carry, and
 * within half a unit of the last place either figure is written to (a table shown to 2 places,
 * 5.54, against the ×5.544 paid; a paid ×1.9899999 against a table's 1.99).
 */
const same = (a: number, b: number): boolean =>
  Math.abs(a - b) <= Math.max(1e-9 * Math.max(1, Math.abs(a), Math.abs(b)), halfUnitOf(a), halfUnitOf(b)) * (1 + 1e-9);

function mines(result: JsonObject, shown: ShownPayout): string | null {
  const positions = numbersOf(result['mine_positions']);
  const revealed = numbersOf(result['revealed_cells']);
  if (positions === null || revealed === null) return null;
  const hit = revealed.filter((cell) => positions.includes(cell));
  const hitMine = result['hit_mine'];
  if (hit.length > 0 && hitMine === false)
    return `revealed_cells ${JSON.stringify(revealed)} include mine ${String(hit[0])} of mine_positions ${JSON.stringify(positions)}, yet hit_mine is false`;
  if (hit.length > 0 && paidSome(shown) === true)
    return `revealed_cells ${JSON.stringify(revealed)} include mine ${String(hit[0])} of mine_positions ${JSON.stringify(positions)}, yet the bet ${paidText(shown)}`;
  // A negative cell is a "none" sentinel (-1 on a win), as null or "none" is.
  const written = numberOf(result['hit_at_cell']);
  const at = written !== null && written >= 0 ? written : null;
  if (at !== null && !positions.includes(at))
    return `hit_at_cell ${String(at)} is not one of mine_positions ${JSON.stringify(positions)}`;
  // The mine hit may be written apart from the safe cells (hit_at_cell, revealed_cells the safe ones).
  if (hit.length === 0 && hitMine === true && (at === null || !positions.includes(at)))
    return `hit_mine is true, yet no cell of revealed_cells ${JSON.stringify(revealed)} nor hit_at_cell is in mine_positions ${JSON.stringify(positions)}`;
  return null;
}

function keno(result: JsonObject, shown: ShownPayout): string | null {
  const picks = numbersOf(result['picks']);
  const drawn = numbersOf(result['drawn']);
  if (picks === null || drawn === null) return null;
  const caught = picks.filter((pick) => drawn.includes(pick));
  const matches = result['matches'];
  const listed = numbersOf(matches);
  const stated = listed === null ? numberOf(matches) : listed.length;
  if (stated !== null && stated !== caught.length)
    return `matches ${JSON.stringify(matches)} where picks ${JSON.stringify(picks)} and drawn ${JSON.stringify(drawn)} share ${String(caught.length)} (${JSON.stringify(caught)})`;
  const table = result['payout_table'];
  const paid = creditedMultiplier(shown);
  if (typeof table !== 'object' || table === null || paid === null) return null;
  const due = tableLine(table, caught.length);
  if (due !== null && !same(due, paid))
    return `${String(caught.length)} of picks ${JSON.stringify(picks)} are in drawn ${JSON.stringify(drawn)}, which its payout_table pays ×${String(due)}, yet the bet ${paidText(shown)}`;
  return null;
}

/**
 * The payout the answer's keno table states for `catches`: its line, or 0 where the table lists
 * catch counts only (a count it leaves out pays nothing); null where it cannot be told.
 */
function tableLine(table: JsonObject | JsonValue[], catches: number): number | null {
  const line = Array.isArray(table) ? table[catches] : table[String(catches)];
  if (line !== undefined) return numberOf(line);
  // Only a flat table of numbers by catch count says a count it leaves out pays nothing (a table
  // keyed by picks, its lines tables of their own, says nothing of the kind).
  if (Array.isArray(table)) return null;
  const entries = Object.entries(table);
  return entries.length > 0 && entries.every(([key, value]) => /^\d+$/.test(key) && numberOf(value) !== null)
    ? 0
    : null;
}

/**
 * A card's blackjack value under one reading of numbers (10 for a face, 11 for an ace, counted 1
 * where 11 busts); null for no card. Letters and names read one way. A number reads two ways, since
 * 11 is an ace in a values encoding (A = 1 or 11, faces 10) and a jack in a ranks one (A = 1,
 * J Q K = 11 12 13): `ranks` picks the reading.
 */
function cardValue(card: JsonValue | undefined, ranks: boolean): number | null {
  const face = typeof card === 'string' ? card.trim().toUpperCase() : null;
  if (face === 'A' || face === 'ACE') return 11;
  if (face === 'J' || face === 'Q' || face === 'K' || face === 'JACK' || face === 'QUEEN' || face === 'KING') return 10;
  const value = numberOf(card);
  if (value === null || !Number.isInteger(value) || value < 1) return null;
  if (value === 1) return 11;
  if (ranks) return value <= 10 ? value : value <= 13 ? 10 : null;
  return value <= 11 ? value : null;
}

/** The totals one reading gives a hand: the best (aces 11 while they fit) and the hard one (aces 1); null where a card does not read. */
function readingTotals(cards: readonly JsonValue[], ranks: boolean): readonly [number, number] | null {
  const values = cards.map((card) => cardValue(card, ranks));
  if (values.some((value) => value === null)) return null;
  const aces = values.filter((value) => value === 11).length;
  const hard = (values as number[]).reduce((sum, value) => sum + (value === 11 ? 1 : value), 0);
  let best = hard + aces * 10;
  for (let soft = aces; best > 21 && soft > 0; soft -= 1) best -= 10;
  return [best, hard];
}

/** The totals a deployment may show for the hand, under either reading of its numbers; null where no reading reads it. */
function handTotals(cards: JsonValue | undefined): readonly number[] | null {
  if (!Array.isArray(cards) || cards.length === 0) return null;
  const totals = [readingTotals(cards, false), readingTotals(cards, true)].filter((pair) => pair !== null);
  return totals.length === 0 ? null : [...new Set(totals.flat())];
}

function blackjack(result: JsonObject, shown: ShownPayout): string | null {
  for (const hand of ['player', 'dealer'] as const) {
    const totals = handTotals(result[`${hand}_cards`]);
    const stated = numberOf(result[`${hand}_total`]);
    if (totals !== null && stated !== null && !totals.includes(stated))
      return `${hand}_total ${String(stated)} where ${hand}_cards ${JSON.stringify(result[`${hand}_cards`])} total ${totals.join(' or ')}`;
  }
  const player = handTotals(result['player_cards']);
  if (player !== null && Math.min(...player) > 21 && paidSome(shown) === true)
    return `player_cards ${JSON.stringify(result['player_cards'])} total ${String(Math.min(...player))} (bust), yet the bet ${paidText(shown)}`;
  return playedOut(result, shown);
}

/**
 * The two stated totals against the payout, where both hands were played out (the player not bust,
 * the dealer's cards all shown and at least two): a player above the dealer, or a dealer bust, is
 * a win (a return below the stake contradicts it); a player below the dealer is a loss (a return
 * above the stake contradicts it, a surrender's half does not). Equal totals are not judged (a
 * natural beats a drawn 21), nor totals written otherwise than as one number.
 */
function playedOut(result: JsonObject, shown: ShownPayout): string | null {
  const [playerTotal, dealerTotal] = [numberOf(result['player_total']), numberOf(result['dealer_total'])];
  const dealerCards = result['dealer_cards'];
  const paid = creditedMultiplier(shown);
  if (playerTotal === null || dealerTotal === null || paid === null || playerTotal > 21) return null;
  if (!Array.isArray(dealerCards) || dealerCards.length < 2 || handTotals(dealerCards) === null) return null;
  const totals = `player_total ${String(playerTotal)} against dealer_total ${String(dealerTotal)}`;
  if ((dealerTotal > 21 || playerTotal > dealerTotal) && paid < 1)
    return `${totals} is a win, yet the bet ${paidText(shown)}`;
  if (dealerTotal <= 21 && playerTotal < dealerTotal && paid > 1)
    return `${totals} is a loss, yet the bet ${paidText(shown)}`;
  return null;
}

function hilo(result: JsonObject, shown: ShownPayout): string | null {
  const [first, second, guess] = [numberOf(result['card1']), numberOf(result['card2']), result['guess']];
  if (first === null || second === null || first === second || (guess !== 'higher' && guess !== 'lower')) return null;
  const wins = guess === 'higher' ? second > first : second < first;
  const paid = paidSome(shown);
  if (paid === null || paid === wins) return null;
  return `card1 ${String(first)}, card2 ${String(second)} and guess ${guess} make a ${wins ? 'win' : 'loss'}, yet the bet ${paidText(shown)}`;
}

function roulette(result: JsonObject, shown: ShownPayout): string | null {
  // "00", an American wheel's double zero, is no pocket of the single-zero wheel these bets are read on.
  if (typeof result['number'] === 'string' && /^0\d/.test(result['number'].trim())) return null;
  const pocket = numberOf(result['number']);
  if (pocket === null || !Number.isInteger(pocket) || pocket < 0 || pocket > 36) return null;
  const colour = pocket === 0 ? 'green' : RED_NUMBERS.has(pocket) ? 'red' : 'black';
  const stated = typeof result['color'] === 'string' ? result['color'].trim().toLowerCase() : null;
  if (stated !== null && ['red', 'black', 'green'].includes(stated) && stated !== colour)
    return `color ${JSON.stringify(result['color'])} where number ${String(pocket)} is ${colour}`;
  const betType = ROULETTE_BET_TYPES.find((type) => type === result['bet_type']);
  if (betType === undefined) return null;
  const value = numberOf(result['bet_value']);
  if (betType === 'number' && value === null) return null;
  const wins = rouletteWins({ betType, betValue: value }, pocket);
  // A lost bet may return part of the stake (la partage on 0): only a full return or more contradicts it.
  const contradicts = wins ? paidSome(shown) === false : (creditedMultiplier(shown) ?? 0) >= 1;
  return contradicts
    ? `number ${String(pocket)} ${wins ? 'wins' : 'loses'} bet_type ${betType}${value === null ? '' : ` ${String(value)}`}, yet the bet ${paidText(shown)}`
    : null;
}

/**
 * A baccarat card's points: a ten or a face counts 0. Read so that both ways a deployment may write a
 * hand agree: as points (0-9) or as ranks (1-13, J Q K as 11 12 13).
 */
const baccaratPoints = (card: number): number => (card >= 10 ? 0 : card);

/** The side a bet names, in any case or by its initial (Banker, BANKER, B); null for anything else. */
function baccaratSide(value: JsonValue | undefined): 'player' | 'banker' | 'tie' | null {
  if (typeof value !== 'string') return null;
  const word = value.trim().toLowerCase();
  for (const side of ['player', 'banker', 'tie'] as const) if (word === side || word === side[0]) return side;
  return null;
}

function baccarat(result: JsonObject, shown: ShownPayout): string | null {
  const [player, banker] = [numberOf(result['player_value']), numberOf(result['banker_value'])];
  for (const [side, value] of [
    ['player', player],
    ['banker', banker],
  ] as const) {
    const hand = numbersOf(result[`${side}_hand`]);
    const counts = hand === null ? null : hand.reduce((sum, card) => sum + baccaratPoints(card), 0) % 10;
    if (counts !== null && value !== null && counts !== value)
      return `${side}_value ${String(value)} where ${side}_hand ${JSON.stringify(hand)} counts ${String(counts)}`;
  }
  if (player === null || banker === null) return null;
  const winner = player > banker ? 'player' : banker > player ? 'banker' : 'tie';
  const outcome = baccaratSide(result['outcome']);
  if (outcome !== null && outcome !== winner)
    return `outcome ${JSON.stringify(result['outcome'])} where player_value ${String(player)} and banker_value ${String(banker)} make ${winner}`;
  const betOn = baccaratSide(result['bet_on']);
  // A tie may return a side bet's stake: only a side bet paid more than its stake on a loss, or a winning bet unpaid, contradicts.
  if (betOn === winner && paidSome(shown) === false)
    return `bet_on ${betOn} and the hands make ${winner}, yet the bet ${paidText(shown)}`;
  if (betOn !== null && betOn !== winner && (creditedMultiplier(shown) ?? 0) > 1)
    return `bet_on ${betOn} where the hands make ${winner}, yet the bet ${paidText(shown)}`;
  return null;
}

/** The answer's own `multiplier` against its own `payout_table[slot]` (plinko's table is by slot). */
function plinko(result: JsonObject, shown: ShownPayout): string | null {
  const [table, slot] = [numbersOf(result['payout_table']), numberOf(result['slot'])];
  const shownMultiplier = numberOf(result['multiplier']) ?? creditedMultiplier(shown);
  if (table === null || slot === null || shownMultiplier === null) return null;
  // The slot read from 0 (as DEPLOYED.md's stand-in writes it) or from 1: only a multiplier that neither
  // reading gives contradicts the answer (a deployment counting from 1 is no contradiction).
  const due = table[slot];
  const fromOne = table[slot - 1];
  if (due === undefined || same(due, shownMultiplier) || (fromOne !== undefined && same(fromOne, shownMultiplier)))
    return null;
  return `slot ${String(slot)} is ×${String(due)} in its payout_table ${JSON.stringify(table)}, yet the bet shows ×${String(shownMultiplier)}`;
}

/** Three alike on the reels against the answer's own table line for them (`S S S`, as it writes it). */
function slots(result: JsonObject, shown: ShownPayout): string | null {
  const [reels, table] = [result['reels'], result['payout_table']];
  if (
    !Array.isArray(reels) ||
    reels.length !== 3 ||
    typeof table !== 'object' ||
    table === null ||
    Array.isArray(table)
  )
    return null;
  const shownMultiplier = numberOf(result['multiplier']) ?? creditedMultiplier(shown);
  if (shownMultiplier === null || !reels.every((reel) => typeof reel === 'string' && reel === reels[0])) return null;
  const due = numberOf(table[reels.join(' ')]);
  return due !== null && !same(due, shownMultiplier)
    ? `reels ${JSON.stringify(reels)} are its payout_table's line "${reels.join(' ')}" ×${String(due)}, yet the bet shows ×${String(shownMultiplier)}`
    : null;
}

/** Three alike symbols against the answer's own table line for them (the symbol three times, as it writes it). */
function scratchCard(result: JsonObject, shown: ShownPayout): string | null {
  const [symbols, table] = [result['symbols'], result['payout_table']];
  if (
    !Array.isArray(symbols) ||
    symbols.length !== 3 ||
    typeof table !== 'object' ||
    table === null ||
    Array.isArray(table)
  )
    return null;
  const shownMultiplier = numberOf(result['payout_multiplier']) ?? creditedMultiplier(shown);
  if (shownMultiplier === null || !symbols.every((symbol) => typeof symbol === 'string' && symbol === symbols[0]))
    return null;
  const due = numberOf(table[symbols.join('')]);
  return due !== null && !same(due, shownMultiplier)
    ? `symbols ${JSON.stringify(symbols)} are its payout_table's line "${symbols.join('')}" ×${String(due)}, yet the bet shows ×${String(shownMultiplier)}`
    : null;
}

/** The sector landed against its own line in the answer's `wheel` table (matched by the sector's name as written). */
function wheel(result: JsonObject, shown: ShownPayout): string | null {
  const [sector, table] = [result['sector'], result['wheel']];
  const shownMultiplier = numberOf(result['multiplier']) ?? creditedMultiplier(shown);
  if (typeof sector !== 'string' || !Array.isArray(table) || shownMultiplier === null) return null;
  const named = (entry: JsonValue): boolean =>
    typeof entry === 'object' &&
    entry !== null &&
    !Array.isArray(entry) &&
    typeof entry['sector'] === 'string' &&
    entry['sector'].toLowerCase() === sector.toLowerCase();
  const line = table.find(named);
  const due = typeof line === 'object' && line !== null && !Array.isArray(line) ? numberOf(line['multiplier']) : null;
  return due !== null && !same(due, shownMultiplier)
    ? `sector ${JSON.stringify(sector)} is ×${String(due)} in its own wheel table, yet the bet shows ×${String(shownMultiplier)}`
    : null;
}

const CHECKS: Readonly<Record<string, Check>> = {
  mines,
  keno,
  blackjack,
  hilo,
  roulette,
  baccarat,
  plinko,
  slots,
  scratch_card: scratchCard,
  wheel,
  parlay: parlayContradiction,
};

export function deployedAnswerContradiction(game: string, result: JsonValue, shown: ShownPayout): string | null {
  const check = CHECKS[game];
  if (check === undefined || typeof result !== 'object' || result === null || Array.isArray(result)) return null;
  return check(result, shown);
}
