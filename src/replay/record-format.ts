/**
 * The record format `afp-record/1`: JSON Lines, one header line then one line per exchange, in
 * the order the simulator sent them. What `afp run --record FILE` writes and `afp replay` reads.
 *
 *   line 1:   { format, scenario, seed, start_ms, end_ms, exchanges, complete, identifier_rule,
 *               platform: { dispute_outcome, faults: [{ service, from_ms, until_ms, status }],
 *                           casino_closures: [{ game, from_ms, until_ms }],
 *                           trading_shocks: [{ base, at_ms, move_bps }],
 *                           market_closures: [{ symbol, from_ms, until_ms }],
 *                           domain_year_ms, domain_grace_ms },
 *               dropped: { exchanges, index_values, bodies, sites }, tiers: { <agent_id>: tier },
 *               deposits: { <agent_id>: { chain, amount } },
 *               mints: [{ after_seq, chain, address, amount, token }] }
 *   line n+1: exchange seq n (1-based): { seq, at_ms, agent, request, response, provenance, introduced }
 *
 * Invariants: the header is written last-known-complete (the recorder buffers and writes it at
 * finish, so `exchanges` is the exact number of lines that follow); seq runs 1, 2, 3…; at_ms never
 * decreases and is ≥ start_ms; a request carries `body` or `raw_body`, never both; response headers
 * are only x-ratelimit-* and retry-after. `provenance` names each request site whose value a
 * response produced earlier (see provenance.ts); `introduced` names the sites whose
 * identifier-like value this request introduced (caller-chosen agent ids): those are never rebound.
 * A record cut short by a limit (`complete: false`) is a faithful prefix of the run.
 *
 * What the simulator sets outside HTTP travels in the header: `platform` (the scenario's dispute
 * outcome, fault windows, casino game closures, trading price shocks and market closures, at
 * absolute instants, and the domain year and grace lengths), `tiers` (agents of pro and enterprise
 * populations; free is the default and not listed) and `deposits` (the casino starting deposit
 * each agent got right after its registration, `casino.starting_deposit`) and `mints` (the coins and
 * tokens minted at a created wallet's addresses right after the exchange `after_seq` that created it,
 * `wallet.starting_funds`; in the order minted). All are optional on disk — records written
 * before they existed lack them and read as the defaults (`recordedPlatformOf`, `recordedTiersOf`,
 * `recordedDepositsOf`, `recordedMintsOf`)
 * — so the format stays `afp-record/1`; this afp always writes them.
 */
import type { JsonValue } from '../core/errors.ts';
import type { FaultWindow, ServiceName } from '../platform/platform.ts';
import type { GameClosure } from '../services/casino/closure-schedule.ts';
import { DEFAULT_CONFIG } from '../services/shared/config.ts';
import type { MarketClosure, PriceShock } from '../services/trading/trading-record.ts';

export const RECORD_FORMAT = 'afp-record/1';
/** Fault windows a header may list (a scenario has at most 100). */
export const RECORD_FAULTS_MAX = 100;
/** Agents a header's `tiers` may list (a scenario has at most 1,000,000 agents). */
export const RECORD_TIERS_MAX = 1_000_000;

/** Agents a header's `deposits` may list (one starting deposit per agent). */
export const RECORD_DEPOSITS_MAX = RECORD_TIERS_MAX;

/**
 * Wallet mints a header's `mints` may list (about 150 characters each, so the header stays far
 * below the reader's line limit); a run that mints more stops its recording there (`complete: false`).
 */
export const RECORD_MINTS_MAX = 50_000;

export type DisputeResolution = 'refund' | 'release';
/** The tiers a record lists; free is the default and never listed. */
export type RecordedTier = 'pro' | 'enterprise';

/** A casino starting deposit: the chain and the amount as a USDC decimal text ("100.000000"). */
export interface RecordedDeposit {
  readonly chain: string;
  readonly amount: string;
}

/**
 * A wallet mint the harness made outside HTTP (a scenario's `wallet.starting_funds`), right after
 * exchange `after_seq` created the wallet: `amount` whole units of the chain's coin, or of the token
 * contract `token`, at the recorded `address` (the replay sends it to the address bound to it).
 */
export interface RecordedMint {
  readonly after_seq: number;
  readonly chain: string;
  readonly address: string;
  readonly amount: string;
  readonly token: string | null;
}

export interface RecordedFault {
  readonly service: ServiceName;
  readonly from_ms: number;
  readonly until_ms: number;
  readonly status: 500 | 503;
}

/** A casino game closure of the recorded run: bets on `game` answer 409 GAME_CLOSED in [from_ms, until_ms). */
export interface RecordedClosure {
  readonly game: string;
  readonly from_ms: number;
  readonly until_ms: number;
}

/** A trading price shock of the recorded run: from `at_ms` on, the asset `base` moves by `move_bps`. */
export interface RecordedShock {
  readonly base: string;
  readonly at_ms: number;
  readonly move_bps: number;
}

/** A trading market closure of the recorded run: `symbol` (or every market: '*') answers MARKET_CLOSED in [from_ms, until_ms). */
export interface RecordedMarketClosure {
  readonly symbol: string;
  readonly from_ms: number;
  readonly until_ms: number;
}

/** The platform settings of the recorded run (`GET /_afp/platform` of afp serve has the same shape). */
export interface RecordedPlatform {
  readonly dispute_outcome: DisputeResolution;
  readonly faults: readonly RecordedFault[];
  /** Absent in records and serves from before closures were recorded: none. */
  readonly casino_closures?: readonly RecordedClosure[];
  /** Absent in records and serves from before trading settings were recorded: none. */
  readonly trading_shocks?: readonly RecordedShock[];
  /** Absent in records and serves from before trading settings were recorded: none. */
  readonly market_closures?: readonly RecordedMarketClosure[];
  /** The length of a domain registration year; absent in older records: the default (365 days). */
  readonly domain_year_ms?: number;
  /** How long an expired domain stays expired before release; absent in older records: the default (30 days). */
  readonly domain_grace_ms?: number;
}

/** What a record without `platform` was made with: the platform's defaults, no fault window. */
export const DEFAULT_RECORDED_PLATFORM: RecordedPlatform = {
  dispute_outcome: DEFAULT_CONFIG.escrow.disputeOutcome,
  faults: [],
};

export interface DroppedCounts {
  /** Exchanges not written because the record reached its size limit (the record is a prefix). */
  exchanges: number;
  /** Produced values not indexed because the index was full (their later uses are not rebound). */
  index_values: number;
  /** Response bodies left out because their line was too long (their diff is skipped). */
  bodies: number;
  /** Request sites not examined because a request had too many. */
  sites: number;
}

export interface RecordHeader {
  readonly format: typeof RECORD_FORMAT;
  readonly scenario: string;
  readonly seed: string;
  readonly start_ms: number;
  readonly end_ms: number;
  readonly exchanges: number;
  readonly complete: boolean;
  readonly identifier_rule: string;
  /** Absent in records written before it existed: read as `DEFAULT_RECORDED_PLATFORM`. */
  readonly platform?: RecordedPlatform;
  readonly dropped: DroppedCounts;
  /** Agent id → tier, for agents whose population is not free; absent in older records (none). */
  readonly tiers?: Readonly<Record<string, RecordedTier>>;
  /** Agent id → the casino starting deposit it got after registering; absent in older records (none). */
  readonly deposits?: Readonly<Record<string, RecordedDeposit>>;
  /** The wallet mints of the run, in the order made; absent in older records (none). */
  readonly mints?: readonly RecordedMint[];
}

export function recordedPlatformOf(header: RecordHeader): RecordedPlatform {
  return header.platform ?? DEFAULT_RECORDED_PLATFORM;
}

export function recordedTiersOf(header: RecordHeader): Readonly<Record<string, RecordedTier>> {
  return header.tiers ?? {};
}

/** The platform's trading price shocks in the record's spelling. */
export function recordedShocks(shocks: readonly PriceShock[]): RecordedShock[] {
  return shocks.map((shock) => ({ base: shock.base, at_ms: shock.atMs, move_bps: shock.moveBps }));
}

/** The platform's trading market closures in the record's spelling. */
export function recordedMarketClosures(closures: readonly MarketClosure[]): RecordedMarketClosure[] {
  return closures.map((closure) => ({ symbol: closure.symbol, from_ms: closure.fromMs, until_ms: closure.untilMs }));
}

/** A recorded platform's trading settings in the platform's spelling (what afp serve is built with). */
export function tradingOfRecorded(platform: RecordedPlatform): { shocks: PriceShock[]; closures: MarketClosure[] } {
  return {
    shocks: (platform.trading_shocks ?? []).map((shock) => ({
      base: shock.base,
      atMs: shock.at_ms,
      moveBps: shock.move_bps,
    })),
    closures: (platform.market_closures ?? []).map((closure) => ({
      symbol: closure.symbol,
      fromMs: closure.from_ms,
      untilMs: closure.until_ms,
    })),
  };
}

/** The domain year of a recorded platform (the default when the record predates it). */
export function recordedDomainYearMs(platform: RecordedPlatform): number {
  return platform.domain_year_ms ?? DEFAULT_CONFIG.domains.yearMs;
}

/** The domain grace of a recorded platform (the default when the record predates it). */
export function recordedDomainGraceMs(platform: RecordedPlatform): number {
  return platform.domain_grace_ms ?? DEFAULT_CONFIG.domains.graceMs;
}

/** The platform's casino game closures in the record's spelling. */
export function recordedClosures(closures: readonly GameClosure[]): RecordedClosure[] {
  return closures.map((closure) => ({ game: closure.game, from_ms: closure.fromMs, until_ms: closure.untilMs }));
}

export function recordedDepositsOf(header: RecordHeader): Readonly<Record<string, RecordedDeposit>> {
  return header.deposits ?? {};
}

export function recordedMintsOf(header: RecordHeader): readonly RecordedMint[] {
  return header.mints ?? [];
}

/** The platform's fault windows in the record's spelling (absolute instants, snake_case). */
export function recordedFaults(faults: readonly FaultWindow[]): RecordedFault[] {
  return faults.map((fault) => ({
    service: fault.service,
    from_ms: fault.fromMs,
    until_ms: fault.untilMs,
    status: fault.status,
  }));
}

export interface RecordedRawBody {
  readonly text: string;
  readonly content_type: string;
}

export interface RecordedRequest {
  readonly mount: string;
  readonly method: string;
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: JsonValue;
  readonly raw_body?: RecordedRawBody;
}

export interface RecordedResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** null with `body_dropped` when the line would have been too long. */
  readonly body: JsonValue;
  readonly body_dropped?: true;
}

export interface ProvenanceEntry {
  /** The request site: `path/<i>`, `query/<name>`, `body` or `body/<pointer>`, `headers/<name>`. */
  readonly at: string;
  /** The first response that produced the value, and where in its body (a JSON pointer). */
  readonly from: { readonly seq: number; readonly pointer: string };
  /** Text before the value at the site (`Bearer ` in the authorization header). */
  readonly prefix?: string;
}

export interface RecordedExchange {
  readonly seq: number;
  readonly at_ms: number;
  readonly agent: string | null;
  readonly request: RecordedRequest;
  readonly response: RecordedResponse;
  readonly provenance: readonly ProvenanceEntry[];
  readonly introduced: readonly string[];
}

/** Response headers worth keeping: the rate-limit contract (platform.md Limits rule 4). */
export function isRecordedResponseHeader(name: string): boolean {
  return name.startsWith('x-ratelimit-') || name === 'retry-after';
}
