/**
 * JournalRing: one agent's journal entries (account-journal.ts), the newest `capacity` of them, as
 * fixed-size rows in a ring that grows fourfold up to its capacity and then overwrites its
 * oldest entry.
 *
 * Why rows: every agent that ever held money has a journal, and the casino journals one or two
 * entries per bet. An entry kept as an object (its boxed time and two bigints) costs about 180
 * bytes; a row is six numbers side by side in one array (sequence, time, the words of a bet-id
 * reference, amount, balance after) and three references in another (reasons and counterparties
 * are a few shared names; a reference that is a bet id, `bet_` + 16 hex, is kept as its two
 * words). Plain arrays, not typed arrays: a typed array, its view and its buffer cost ~300 bytes
 * more per agent, too much at a million agents (issue 19: <= 4 KB per agent). Entries are
 * rebuilt as JournalEntry objects only when read, equal field for field.
 *
 * Invariants: sequences ascend from the oldest to the newest entry (the journal's counter only
 * grows), so paging by `before` is a binary search. An amount is kept as a number when it is a
 * safe integer (below 2^53 micro-USDC, 9 billion USDC: every real balance), exactly; a larger
 * one keeps its exact value in a side map keyed by sequence and column, and its cell holds NaN.
 */
import { assert } from '../../../core/assert.ts';
import type { Transfer } from '../../../core/ledger.ts';
import type { Micro } from '../../../core/money.ts';
import { unrolledRows } from '../../../core/ring-rows.ts';
import { readIdWords, type IdWords } from '../bet-id-index.ts';
import type { JournalEntry } from './journal-entry.ts';

// Two rows first: most agents of a large run journal only their grants.
const INITIAL_CAPACITY = 2;
/** The ring grows fourfold: fewer copies of a growing ring. */
const GROWTH = 4;
/** Row layout, in cells. */
const SEQUENCE = 0;
const AT_MS = 1;
const REFERENCE_HIGH = 2;
const REFERENCE_LOW = 3;
const AMOUNT = 4;
const BALANCE = 5;
const CELLS = 6;
/** References per row. */
const REASON = 0;
const COUNTERPARTY = 1;
/** The reference text, or null when it is a bet id kept as words. */
const REFERENCE = 2;
const REFS = 3;

/** Scratch for a reference's words, shared by every ring (pushes are synchronous). */
const WORDS: IdWords = { high: 0, low: 0 };

function hex8(word: number): string {
  return word.toString(16).padStart(8, '0');
}

export class JournalRing {
  private readonly capacityMax: number;
  private capacity = 0;
  private start = 0;
  private count = 0;
  /** `capacity` rows of CELLS numbers, then of REFS references, each allocated whole. */
  private cells: number[];
  private refs: Array<string | null>;
  /** The amounts that are not safe integers, exactly, by `sequence * CELLS + column`; null until one is met. */
  private wide: Map<number, Micro> | null = null;
  private newestSequence = -1;

  constructor(capacityMax: number) {
    assert(Number.isSafeInteger(capacityMax) && capacityMax >= 1, 'a journal ring holds at least one entry');
    this.capacityMax = capacityMax;
    this.capacity = Math.min(INITIAL_CAPACITY, capacityMax);
    this.cells = new Array<number>(this.capacity * CELLS).fill(0);
    this.refs = new Array<string | null>(this.capacity * REFS).fill(null);
  }

  get size(): number {
    return this.count;
  }

  /**
   * Appends the entry of `transfer` for this agent: `counterparty` the other side, `amountMicro`
   * signed (negative when the agent pays). Positional, no entry object: this runs for every
   * transfer that touches an agent.
   */
  push(
    sequence: number,
    atMs: number,
    transfer: Transfer,
    counterparty: string,
    amountMicro: Micro,
    balanceAfterMicro: Micro,
  ): void {
    if (this.count === this.capacity) {
      if (this.capacity < this.capacityMax) this.grow();
      else this.dropOldest();
    }
    const slot = this.slotAt(this.count);
    const at = slot * CELLS;
    const cells = this.cells;
    assert(sequence > this.newestSequence, 'journal sequences ascend');
    this.newestSequence = sequence;
    cells[at + SEQUENCE] = sequence;
    cells[at + AT_MS] = atMs;
    this.setAmount(at, AMOUNT, sequence, amountMicro);
    this.setAmount(at, BALANCE, sequence, balanceAfterMicro);
    const row = slot * REFS;
    const refs = this.refs;
    refs[row + REASON] = transfer.reason;
    refs[row + COUNTERPARTY] = counterparty;
    if (readIdWords(transfer.reference, WORDS)) {
      cells[at + REFERENCE_HIGH] = WORDS.high;
      cells[at + REFERENCE_LOW] = WORDS.low;
      refs[row + REFERENCE] = null;
    } else {
      refs[row + REFERENCE] = transfer.reference;
    }
    this.count += 1;
  }

  /** Entries newest first, at most `limit`, only those with sequence < `beforeSequence`. */
  newest(limit: number, beforeSequence: number | null): JournalEntry[] {
    let end = this.count; // exclusive, in positions from the oldest
    if (beforeSequence !== null) {
      let low = 0;
      while (low < end) {
        const middle = (low + end) >>> 1;
        if ((this.cells[this.slotAt(middle) * CELLS + SEQUENCE] as number) < beforeSequence) low = middle + 1;
        else end = middle;
      }
    }
    const found: JournalEntry[] = [];
    for (let position = end - 1; position >= 0 && found.length < limit; position--)
      found.push(this.entryAt(this.slotAt(position)));
    return found;
  }

  private entryAt(slot: number): JournalEntry {
    const at = slot * CELLS;
    const row = slot * REFS;
    const sequence = this.cells[at + SEQUENCE] as number;
    return {
      sequence,
      atMs: this.cells[at + AT_MS] as number,
      reason: this.refs[row + REASON] as string,
      reference:
        this.refs[row + REFERENCE] ??
        `bet_${hex8(this.cells[at + REFERENCE_HIGH] as number)}${hex8(this.cells[at + REFERENCE_LOW] as number)}`,
      counterparty: this.refs[row + COUNTERPARTY] as string,
      amountMicro: this.amountAt(at, AMOUNT, sequence),
      balanceAfterMicro: this.amountAt(at, BALANCE, sequence),
    };
  }

  /** Slot of the entry `position` places after the oldest. */
  private slotAt(position: number): number {
    const slot = this.start + position;
    return slot >= this.capacity ? slot - this.capacity : slot;
  }

  private dropOldest(): void {
    const sequence = this.cells[this.start * CELLS + SEQUENCE] as number;
    if (this.wide !== null) {
      this.wide.delete(sequence * CELLS + AMOUNT);
      this.wide.delete(sequence * CELLS + BALANCE);
    }
    this.start = this.slotAt(1);
    this.count -= 1;
  }

  private setAmount(at: number, column: number, sequence: number, value: Micro): void {
    const exact = Number(value);
    if (Number.isSafeInteger(exact)) {
      this.cells[at + column] = exact;
      return;
    }
    this.cells[at + column] = Number.NaN;
    this.wide ??= new Map();
    this.wide.set(sequence * CELLS + column, value);
  }

  private amountAt(at: number, column: number, sequence: number): Micro {
    const cell = this.cells[at + column] as number;
    return Number.isNaN(cell) ? (this.wide?.get(sequence * CELLS + column) as Micro) : BigInt(cell);
  }

  /** Grows the ring (up to capacityMax), unrolled so the oldest entry is at slot 0. */
  private grow(): void {
    const capacity = Math.min(this.capacity * GROWTH, this.capacityMax);
    this.cells = unrolledRows(this.cells, this.start, CELLS, capacity, 0);
    this.refs = unrolledRows<string | null>(this.refs, this.start, REFS, capacity, null);
    this.capacity = capacity;
    this.start = 0;
  }
}
