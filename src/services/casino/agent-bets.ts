/**
 * AgentBets: one agent's retained bets in the BetBook, as fixed-size rows in a ring that grows
 * by doubling up to the retention bound, then overwrites its oldest bet.
 *
 * Why rows of numbers: a settled bet used to stay alive as a dozen small objects (the record, its
 * id text, two bigints, a boxed time, the variant text...), each copied by every young-generation
 * collection it survived and traced by every full one; the bet path spent a fifth of its time
 * collecting them. Here a bet's numbers (id words, time, nonce, won flag, its three amounts, the
 * 32 bytes of its result hash) sit side by side in one 96-byte row of a buffer, seen through a
 * Float64Array, a BigInt64Array and a Uint8Array (a typed array per field measured slower). The
 * fields that repeat from bet to bet (game, variant, parameters, client seed, server seed, source,
 * tournament) are one shared `BetShape` per run of equal values, the multiplier is shared with the
 * agent's recent equal ones, and only the detail is a new reference per bet. The hash is copied
 * from the draw's bytes when the caller has them (parsing its hex text back cost more than keeping
 * the text, which is kept otherwise). A BetRecord is rebuilt on demand, equal field for field to
 * the one added.
 *
 * Sequence numbers: the agent's bets are numbered 0, 1, 2... in placement order; the retained
 * ones are `firstSequence .. firstSequence + size − 1`, at ring slots from `start`.
 * Limits: `retained` bets (the BetBook's bound). Amounts beyond signed 64 bits (no real balance
 * gets there) keep their exact value in a side map keyed by sequence number.
 */
import { assert } from '../../core/assert.ts';
import type { JsonObject } from '../../core/errors.ts';
import type { Micro } from '../../core/money.ts';
import { unrolledCells, unrolledRows } from '../../core/ring-rows.ts';
import { WideAmounts } from '../../core/wide-amounts.ts';
import type { Ratio } from '../../core/ratio.ts';
import type { BetIdIndex } from './bet-id-index.ts';
import type { BetRecord, BetSource, BetGameId } from './bet-record.ts';
import type { BankrollPoint } from './kelly/kelly-history.ts';

const INITIAL_CAPACITY = 16;
/** The ring doubles: a larger factor copies less but overshoots (a 4,096-row buffer for 2,000 bets measured slower). */
const GROWTH = 2;
/** Row layout, in 8-byte cells: numbers first (as doubles), then the three amounts (as int64). */
const ID_HIGH = 0;
const ID_LOW = 1;
const AT_MS = 2;
const NONCE = 3;
const FLAGS = 4; // 1 when the bet won
const AMOUNT = 5; // int64
const PAYOUT = 6; // int64
const BALANCE = 7; // int64
const HASH = 8; // 4 cells: the result hash's 32 bytes
const HASH_BYTES = 32;
const CELLS = 12;
/** References per row: the shape, the multiplier, the detail, the result hash when not kept as bytes. */
const SHAPE = 0;
const MULTIPLIER = 1;
const DETAIL = 2;
const RESULT_HASH = 3;
const REFS = 4;

/** The fields a run of bets usually shares. */
interface BetShape {
  readonly game: BetGameId;
  readonly variant: string;
  readonly params: JsonObject;
  /** Own keys of `params`, in order. */
  readonly paramKeys: readonly string[];
  readonly clientSeed: string;
  readonly seedHash: string;
  readonly source: BetSource;
  readonly tournamentId: string | null;
}

/**
 * Whether `params` has exactly the shape's parameters: the same own keys in the same order with
 * the same primitive values (objects never compare equal here). A false answer is always safe:
 * the bet then gets a shape of its own.
 */
function sameParams(shape: BetShape, params: JsonObject): boolean {
  if (shape.params === params) return true;
  const keys = shape.paramKeys;
  let index = 0;
  for (const key in params) {
    if (keys[index++] !== key || !Object.hasOwn(params, key)) return false;
    const value = params[key];
    if ((typeof value === 'object' && value !== null) || value !== shape.params[key]) return false;
  }
  return index === keys.length;
}

function sameShape(shape: BetShape, bet: BetRecord): boolean {
  return (
    shape.seedHash === bet.seedHash &&
    shape.game === bet.game &&
    shape.variant === bet.variant &&
    shape.clientSeed === bet.clientSeed &&
    shape.source === bet.source &&
    shape.tournamentId === bet.tournamentId &&
    sameParams(shape, bet.params)
  );
}

const sameRatio = (a: Ratio, b: Ratio): boolean => a === b || (a.num === b.num && a.den === b.den);

function hex8(word: number): string {
  return word.toString(16).padStart(8, '0');
}

export class AgentBets {
  readonly agentId: string;
  /** The agent's number in the book (the id index refers to agents by it). */
  readonly number: number;
  private readonly retained: number;
  private capacity = 0;
  private start = 0;
  private count = 0;
  private firstSequence = 0;
  /** Bets before this sequence number are in the book's id index; later ones wait for the next lookup. */
  private indexedUpTo = 0;
  /** Whether the book has this agent in its list of agents with bets not yet indexed. */
  pendingIndex = false;
  /** Time of the newest bet added (kept here: reading it from its row would touch another cache line). */
  private newestAtMs = -Infinity;
  private cells: Float64Array;
  private amounts: BigInt64Array;
  private bytes: Uint8Array;
  /** `capacity` rows of REFS references, allocated whole (appending one by one would copy the array as it grows). */
  private refs: unknown[];
  /** Ids that are not `bet_` + 16 lower-case hex (tests), by slot; null while there are none. */
  private otherIds: Array<string | undefined> | null = null;
  /** The amounts too large for int64, exactly. */
  private readonly wide = new WideAmounts(CELLS);
  /** The two most recent distinct multipliers (a game pays a few; losses share ZERO). */
  private recentMultiplier: Ratio | null = null;
  private olderMultiplier: Ratio | null = null;

  constructor(agentId: string, number: number, retained: number) {
    this.agentId = agentId;
    this.number = number;
    this.retained = retained;
    this.capacity = Math.min(INITIAL_CAPACITY, retained);
    this.cells = new Float64Array(this.capacity * CELLS);
    this.amounts = new BigInt64Array(this.cells.buffer);
    this.bytes = new Uint8Array(this.cells.buffer);
    this.refs = new Array<unknown>(this.capacity * REFS).fill(null);
  }

  get size(): number {
    return this.count;
  }

  /** Sequence number of the next bet added. */
  get nextSequence(): number {
    return this.firstSequence + this.count;
  }

  get oldestSequence(): number {
    return this.firstSequence;
  }

  get full(): boolean {
    return this.count === this.retained;
  }

  /** Time of the newest bet added (-Infinity when none). */
  get lastAtMs(): number {
    return this.newestAtMs;
  }

  private slotOf(sequence: number): number {
    const slot = this.start + sequence - this.firstSequence;
    return slot >= this.capacity ? slot - this.capacity : slot;
  }

  /** Whether `sequence` is retained. */
  holds(sequence: number): boolean {
    return sequence >= this.firstSequence && sequence < this.firstSequence + this.count;
  }

  /**
   * Appends a bet (the book has made room) with what the book knows beyond its record: its id's
   * words when the id is `bet_` + 16 hex (else `otherId`, the text), and the 32 bytes whose hex is
   * its result hash (null: the text is kept). Positional: this runs for every bet.
   */
  push(bet: BetRecord, idHigh: number, idLow: number, otherId: string | null, resultBytes: Uint8Array | null): void {
    assert(this.count < this.retained, 'the book evicts before appending to a full agent');
    if (this.count === this.capacity) this.grow();
    const sequence = this.firstSequence + this.count;
    const slot = this.slotOf(sequence);
    const at = slot * CELLS;
    const cells = this.cells;
    cells[at + ID_HIGH] = idHigh;
    cells[at + ID_LOW] = idLow;
    cells[at + AT_MS] = bet.atMs;
    this.newestAtMs = bet.atMs;
    cells[at + NONCE] = bet.nonce;
    cells[at + FLAGS] = bet.won ? 1 : 0;
    this.setAmount(at + AMOUNT, sequence, bet.amountMicro);
    this.setAmount(at + PAYOUT, sequence, bet.payoutMicro);
    this.setAmount(at + BALANCE, sequence, bet.balanceAfterMicro);
    const refs = this.refs;
    const row = slot * REFS;
    if (resultBytes !== null && resultBytes.length === HASH_BYTES) {
      this.bytes.set(resultBytes, (at + HASH) * 8);
      refs[row + RESULT_HASH] = null;
    } else {
      refs[row + RESULT_HASH] = bet.resultHash;
    }
    refs[row + SHAPE] = this.shapeFor(bet);
    refs[row + MULTIPLIER] = this.multiplierFor(bet.multiplier);
    refs[row + DETAIL] = bet.detail;
    if (otherId !== null || this.otherIds !== null) {
      this.otherIds ??= [];
      this.otherIds[slot] = otherId ?? undefined;
    }
    this.count += 1;
  }

  private shapeFor(bet: BetRecord): BetShape {
    if (this.count > 0) {
      const previous = this.refs[this.slotOf(this.firstSequence + this.count - 1) * REFS + SHAPE] as BetShape;
      if (sameShape(previous, bet)) return previous;
    }
    const { game, variant, params, clientSeed, seedHash, source, tournamentId } = bet;
    return { game, variant, params, paramKeys: Object.keys(params), clientSeed, seedHash, source, tournamentId };
  }

  private multiplierFor(multiplier: Ratio): Ratio {
    const recent = this.recentMultiplier;
    if (recent !== null && sameRatio(recent, multiplier)) return recent;
    const older = this.olderMultiplier;
    this.olderMultiplier = recent;
    if (older !== null && sameRatio(older, multiplier)) {
      this.recentMultiplier = older;
      return older;
    }
    this.recentMultiplier = multiplier;
    return multiplier;
  }

  /** Puts the ids of the bets added since the last call into `index`; false when one was there already. */
  indexNew(index: BetIdIndex): boolean {
    let unique = true;
    for (let sequence = this.indexedUpTo; sequence < this.firstSequence + this.count; sequence++) {
      const slot = this.slotOf(sequence);
      const otherId = this.otherIds?.[slot];
      const added =
        otherId === undefined
          ? index.addWords(
              this.cells[slot * CELLS + ID_HIGH] as number,
              this.cells[slot * CELLS + ID_LOW] as number,
              this.number,
              sequence,
            )
          : index.addOther(otherId, this.number, sequence);
      unique &&= added;
    }
    this.indexedUpTo = this.firstSequence + this.count;
    return unique;
  }

  /** Drops the oldest bet, and its id from `index` when it is there. */
  evictOldest(index: BetIdIndex): void {
    assert(this.count > 0, 'evicting from a non-empty agent');
    const slot = this.start;
    if (this.firstSequence < this.indexedUpTo) {
      const otherId = this.otherIds?.[slot];
      if (otherId === undefined)
        index.deleteWords(this.cells[slot * CELLS + ID_HIGH] as number, this.cells[slot * CELLS + ID_LOW] as number);
      else index.deleteOther(otherId);
    }
    this.wide.forget(this.firstSequence, AMOUNT);
    this.wide.forget(this.firstSequence, PAYOUT);
    this.wide.forget(this.firstSequence, BALANCE);
    this.start = this.start + 1 === this.capacity ? 0 : this.start + 1;
    this.firstSequence += 1;
    this.count -= 1;
    if (this.indexedUpTo < this.firstSequence) this.indexedUpTo = this.firstSequence;
  }

  /** The bet with this sequence number (retained), rebuilt; `id` when the caller has its text. */
  record(sequence: number, id: string | null): BetRecord {
    assert(this.holds(sequence), 'a retained sequence number');
    const slot = this.slotOf(sequence);
    const at = slot * CELLS;
    const row = slot * REFS;
    const shape = this.refs[row + SHAPE] as BetShape;
    const flags = this.cells[at + FLAGS] as number;
    return {
      id: id ?? this.idOf(slot),
      agentId: this.agentId,
      game: shape.game,
      variant: shape.variant,
      params: shape.params,
      amountMicro: this.amountAt(at + AMOUNT, sequence),
      multiplier: this.refs[row + MULTIPLIER] as Ratio,
      payoutMicro: this.amountAt(at + PAYOUT, sequence),
      won: (flags & 1) === 1,
      clientSeed: shape.clientSeed,
      nonce: this.cells[at + NONCE] as number,
      seedHash: shape.seedHash,
      resultHash:
        (this.refs[row + RESULT_HASH] as string | null) ??
        Buffer.from(this.bytes.buffer, (at + HASH) * 8, HASH_BYTES).toString('hex'),
      detail: this.refs[row + DETAIL] as JsonObject,
      atMs: this.cells[at + AT_MS] as number,
      balanceAfterMicro: this.amountAt(at + BALANCE, sequence),
      source: shape.source,
      tournamentId: shape.tournamentId,
    };
  }

  /** The bet's point of the bankroll curve (GET /kelly/history). */
  bankrollPoint(sequence: number): BankrollPoint {
    const slot = this.slotOf(sequence);
    const at = slot * CELLS;
    return {
      atMs: this.cells[at + AT_MS] as number,
      bankrollMicro: this.amountAt(at + BALANCE, sequence),
      betId: this.idOf(slot),
      game: (this.refs[slot * REFS + SHAPE] as BetShape).game,
    };
  }

  atMsOf(sequence: number): number {
    return this.cells[this.slotOf(sequence) * CELLS + AT_MS] as number;
  }

  gameOf(sequence: number): BetGameId {
    return (this.refs[this.slotOf(sequence) * REFS + SHAPE] as BetShape).game;
  }

  /** Whether the bet drew from the seed with this commitment at this nonce. */
  drewFrom(sequence: number, seedHash: string, nonce: number): boolean {
    const slot = this.slotOf(sequence);
    return (
      this.cells[slot * CELLS + NONCE] === nonce && (this.refs[slot * REFS + SHAPE] as BetShape).seedHash === seedHash
    );
  }

  private idOf(slot: number): string {
    const other = this.otherIds?.[slot];
    if (other !== undefined) return other;
    return `bet_${hex8(this.cells[slot * CELLS + ID_HIGH] as number)}${hex8(this.cells[slot * CELLS + ID_LOW] as number)}`;
  }

  private setAmount(cell: number, sequence: number, value: Micro): void {
    this.wide.set(this.amounts, cell, sequence, value);
  }

  private amountAt(cell: number, sequence: number): Micro {
    return this.wide.get(this.amounts, cell, sequence);
  }

  /** Grows the ring (up to `retained`), unrolled so the oldest bet is at slot 0. */
  private grow(): void {
    const capacity = Math.min(this.capacity * GROWTH, this.retained);
    const cells = unrolledCells(this.cells, this.start, CELLS, capacity);
    const refs = unrolledRows<unknown>(this.refs, this.start, REFS, capacity, null);
    if (this.otherIds !== null) {
      const otherIds: Array<string | undefined> = [];
      for (let position = 0; position < this.count; position++)
        otherIds.push(this.otherIds[(this.start + position) % this.capacity]);
      this.otherIds = otherIds;
    }
    this.cells = cells;
    this.amounts = new BigInt64Array(cells.buffer);
    this.bytes = new Uint8Array(cells.buffer);
    this.refs = refs;
    this.capacity = capacity;
    this.start = 0;
  }
}
