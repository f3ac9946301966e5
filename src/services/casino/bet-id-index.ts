/**
 * BetIdIndex: where each retained bet lives (its agent's slot in the BetBook and its sequence
 * number there), found from its id without hashing strings.
 *
 * Bet ids are `bet_` + 16 lowercase hex from the platform's id stream: the hex is read as two
 * 32-bit words and looked up in an open-addressing table of typed arrays (linear probing,
 * backward-shift deletion, so no tombstones; load at most one half; grows by doubling). Any
 * other id text (tests, or upper-case hex, which no id of the platform has) goes to a plain Map,
 * so every string answers as it would from a Map of id texts.
 * Why: a Map of 10^5–10^6 fresh id strings hashed each string (flattening it first) and cost
 * more per bet than the HMAC of the draw; reading 16 hex digits is a few nanoseconds.
 * Invariants: an id is present at most once; `size` counts the ids present; the table never
 * holds more than `ENTRIES_MAX` ids (a bound far above what the per-agent retention allows for
 * any population afp runs).
 * Non-goals: ordering, iteration (the BetBook keeps the order).
 */
import { assert } from '../../core/assert.ts';

const INITIAL_SLOTS = 1_024;
export const BET_ID_INDEX_ENTRIES_MAX = 1 << 28;
const ID_PREFIX = 'bet_';
const ID_LENGTH = 20;

/** Where an id lives: the agent's number in the book and the bet's sequence number there. */
export interface BetLocation {
  agent: number;
  sequence: number;
}

/** The two 32-bit words of a hex bet id. */
export interface IdWords {
  high: number;
  low: number;
}

/** Value of each ASCII code as a lower-case hex digit, -1 for any other. */
const HEX_VALUE: Int8Array = (() => {
  const table = new Int8Array(128).fill(-1);
  for (let digit = 0; digit < 16; digit++) table['0123456789abcdef'.charCodeAt(digit)] = digit;
  return table;
})();

/**
 * The 32-bit word of 8 hex digits at `from`, or -1 when one is not a lower-case hex digit.
 * Branch-free per digit: `bad` turns negative for a non-digit (table value -1) or a code above 127.
 */
function hexWord(text: string, from: number): number {
  let word = 0;
  let bad = 0;
  for (let index = from; index < from + 8; index++) {
    const code = text.charCodeAt(index);
    const digit = HEX_VALUE[code & 127] as number;
    bad |= digit | (127 - code);
    word = (word << 4) | (digit & 15);
  }
  return bad < 0 ? -1 : word >>> 0;
}

/**
 * The last id read and its words: a bet's id is read three times in a row (the journal entries of
 * its stake and payout, then the book), the same string each time.
 */
let lastId = 'bet_0000000000000000';
let lastHigh = 0;
let lastLow = 0;

/** Whether `id` is `bet_` + 16 lower-case hex; if so its words are written into `into`. */
export function readIdWords(id: string, into: IdWords): boolean {
  if (id === lastId) {
    into.high = lastHigh;
    into.low = lastLow;
    return true;
  }
  if (id.length !== ID_LENGTH || !id.startsWith(ID_PREFIX)) return false;
  const high = hexWord(id, 4);
  const low = hexWord(id, 12);
  if (high < 0 || low < 0) return false;
  lastId = id;
  lastHigh = high;
  lastLow = low;
  into.high = high;
  into.low = low;
  return true;
}

const HEX_CODES: readonly number[] = Array.from('0123456789abcdef', (digit) => digit.charCodeAt(0));
const hexCode = (word: number, shift: number): number => HEX_CODES[(word >>> shift) & 15] as number;

/**
 * The id `bet_` + 8 hex of `high` + 8 hex of `low` (two consecutive draws): the text IdSource
 * `next('bet_', 16)` makes of the same two draws. Remembered as the last id read, so the
 * journal and the book, which read the new bet's id next, find its words without parsing.
 */
export function betIdOfWords(high: number, low: number): string {
  const id = String.fromCharCode(
    98,
    101,
    116,
    95,
    hexCode(high, 28),
    hexCode(high, 24),
    hexCode(high, 20),
    hexCode(high, 16),
    hexCode(high, 12),
    hexCode(high, 8),
    hexCode(high, 4),
    hexCode(high, 0),
    hexCode(low, 28),
    hexCode(low, 24),
    hexCode(low, 20),
    hexCode(low, 16),
    hexCode(low, 12),
    hexCode(low, 8),
    hexCode(low, 4),
    hexCode(low, 0),
  );
  lastId = id;
  lastHigh = high >>> 0;
  lastLow = low >>> 0;
  return id;
}

/** Home slot of a pair of words (ids are random, the multiply spreads any that are not). */
const home = (high: number, low: number, mask: number): number =>
  (Math.imul(low ^ Math.imul(high, 0x85eb_ca6b), 0x9e37_79b1) >>> 0) & mask;

/** Cells per table slot: high word, low word, agent number + 1 (0 = empty), sequence number. */
const HIGH = 0;
const LOW = 1;
const OWNER = 2;
const SEQUENCE = 3;
const CELLS = 4;
const SEQUENCE_MAX = 0xffff_ffff;

export class BetIdIndex {
  private mask = INITIAL_SLOTS - 1;
  /** One slot's cells side by side: a probe reads one cache line, not one per field. */
  private table = new Uint32Array(INITIAL_SLOTS * CELLS);
  private used = 0;
  private readonly others = new Map<string, BetLocation>();
  /** Scratch words of the id being looked up (one pair, reused: no allocation per lookup). */
  private readonly words: IdWords = { high: 0, low: 0 };

  get size(): number {
    return this.used + this.others.size;
  }

  /** Adds the hex id with these words; false (and nothing changes) when it is already present. */
  addWords(high: number, low: number, agent: number, sequence: number): boolean {
    assert(
      agent >= 0 && agent < 0x7fff_ffff && sequence >= 0 && sequence <= SEQUENCE_MAX,
      'agent and sequence numbers fit the index',
    );
    if (this.findSlot(high, low) >= 0) return false;
    if ((this.used + 1) * 2 > this.mask + 1) this.grow();
    this.place(high, low, agent + 1, sequence);
    this.used += 1;
    return true;
  }

  /** Adds an id that is not hex (readIdWords refused it); false when already present. */
  addOther(id: string, agent: number, sequence: number): boolean {
    if (this.others.has(id)) return false;
    this.others.set(id, { agent, sequence });
    return true;
  }

  /** The location of `id` written into `into`; false when absent. */
  find(id: string, into: BetLocation): boolean {
    if (!readIdWords(id, this.words)) {
      const found = this.others.get(id);
      if (found === undefined) return false;
      into.agent = found.agent;
      into.sequence = found.sequence;
      return true;
    }
    const slot = this.findSlot(this.words.high, this.words.low);
    if (slot < 0) return false;
    into.agent = (this.table[slot * CELLS + OWNER] as number) - 1;
    into.sequence = this.table[slot * CELLS + SEQUENCE] as number;
    return true;
  }

  /** Removes an id that is not hex (present or not). */
  deleteOther(id: string): void {
    this.others.delete(id);
  }

  /** Removes the hex id with these words (the book evicts by words, without rebuilding the text). */
  deleteWords(high: number, low: number): void {
    let hole = this.findSlot(high, low);
    if (hole < 0) return;
    this.used -= 1;
    // Backward-shift deletion: pull later members of the probe run into the hole.
    const { mask, table } = this;
    for (let next = (hole + 1) & mask; table[next * CELLS + OWNER] !== 0; next = (next + 1) & mask) {
      const wanted = home(table[next * CELLS + HIGH] as number, table[next * CELLS + LOW] as number, mask);
      // Move `next` into the hole when its home is not in the cyclic range (hole, next].
      if (((next - wanted) & mask) >= ((next - hole) & mask)) {
        table.copyWithin(hole * CELLS, next * CELLS, next * CELLS + CELLS);
        hole = next;
      }
    }
    table[hole * CELLS + OWNER] = 0;
  }

  private findSlot(high: number, low: number): number {
    const { mask, table } = this;
    for (let slot = home(high, low, mask); ; slot = (slot + 1) & mask) {
      const at = slot * CELLS;
      if (table[at + OWNER] === 0) return -1;
      if (table[at + LOW] === low && table[at + HIGH] === high) return slot;
    }
  }

  private place(high: number, low: number, owner: number, sequence: number): void {
    const { mask, table } = this;
    let slot = home(high, low, mask);
    while (table[slot * CELLS + OWNER] !== 0) slot = (slot + 1) & mask;
    const at = slot * CELLS;
    table[at + HIGH] = high;
    table[at + LOW] = low;
    table[at + OWNER] = owner;
    table[at + SEQUENCE] = sequence;
  }

  private grow(): void {
    const slots = (this.mask + 1) * 2;
    assert(slots / 2 <= BET_ID_INDEX_ENTRIES_MAX, 'the bet id index stays within BET_ID_INDEX_ENTRIES_MAX ids');
    const old = this.table;
    this.mask = slots - 1;
    this.table = new Uint32Array(slots * CELLS);
    for (let at = 0; at < old.length; at += CELLS) {
      const owner = old[at + OWNER] as number;
      if (owner !== 0)
        this.place(old[at + HIGH] as number, old[at + LOW] as number, owner, old[at + SEQUENCE] as number);
    }
  }
}
