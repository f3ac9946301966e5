/**
 * Recorder: what `afp run --record FILE` hands the simulator. The simulator calls `onExchange`
 * for every exchange, in order, `onTier` when an agent of a pro or enterprise population gets
 * its tier and `onDeposit` when an agent gets its casino starting deposit (both out of band, not
 * over HTTP, right after the agent's registration), and `onMint` for each coin or token the harness
 * mints at a wallet it just saw created (`wallet.starting_funds`, right after the create's
 * exchange, which the mint names as `after_seq`); `finish(path)` writes the `afp-record/1` file
 * (record-format.ts). The run's platform settings (dispute outcome, fault windows, casino game
 * closures, trading shocks and market closures at absolute instants, the domain year and grace)
 * come with the header input and are written into the header as they are.
 *
 * Each exchange is turned into its line at once (provenance computed against everything seen
 * before it, then the response indexed), so later mutation of bodies cannot change the record.
 * Lines are buffered and written at finish, header first with the final counts.
 *
 * Limits (counted, never silent): a line longer than `lineBytesMax` (1 MiB) loses its response
 * body (`body_dropped`, the replay skips that body's diff); a line still too long, or one that
 * would take the record past `recordBytesMax` (256 MiB), or a mint past RECORD_MINTS_MAX, stops the recording: the record is a
 * faithful prefix, `complete: false`, and the exchanges left out are counted. A run cut short
 * (Ctrl-C, SIGTERM, a crash: run-scenario.ts) is a prefix too: `complete: false`, its `exchanges`
 * the lines it holds. The file is written atomically (core/atomic-file.ts): a kill while it is
 * written, or while the run goes on (nothing is written before `finish`), leaves the previous one.
 */
import { mkdir } from 'node:fs/promises';
import { writeChunksAtomic } from '../core/atomic-file.ts';
import { dirname } from 'node:path';
import { assert } from '../core/assert.ts';
import type { JsonValue } from '../core/errors.ts';
import type { TransportRequest, TransportResponse } from '../client/transport.ts';
import type { FaultWindow } from '../platform/platform.ts';
import { CLOSURES_MAX, type GameClosure } from '../services/casino/closure-schedule.ts';
import { TRADING_LIMITS, type MarketClosure, type PriceShock } from '../services/trading/trading-record.ts';
import { redactSecretsDeep } from '../http/routes/wallet/wallet-parse.ts';
import { IDENTIFIER_RULE } from './identifier-rule.ts';
import { ProvenanceIndex } from './provenance.ts';
import {
  DEFAULT_RECORDED_PLATFORM,
  RECORD_DEPOSITS_MAX,
  RECORD_FAULTS_MAX,
  RECORD_FORMAT,
  RECORD_MINTS_MAX,
  RECORD_TIERS_MAX,
  isRecordedResponseHeader,
  recordedClosures,
  recordedFaults,
  recordedMarketClosures,
  recordedShocks,
  type DisputeResolution,
  type DroppedCounts,
  type RecordedDeposit,
  type RecordedMint,
  type RecordedPlatform,
  type RecordedTier,
  type RecordHeader,
  type RecordedExchange,
  type RecordedRequest,
  type RecordedResponse,
} from './record-format.ts';

export const LINE_BYTES_MAX = 1024 * 1024;
export const RECORD_BYTES_MAX = 256 * 1024 * 1024;
const WRITE_CHUNK_BYTES = 1024 * 1024;

export interface RecorderHeaderInput {
  readonly scenario: string;
  readonly seed: string | number;
  readonly startMs: number;
  /** The run's platform settings; absent: the defaults (dispute outcome refund, no fault window). */
  readonly platform?: {
    readonly disputeOutcome: DisputeResolution;
    readonly faults: readonly FaultWindow[];
    readonly closures?: readonly GameClosure[];
    readonly trading?: { readonly shocks: readonly PriceShock[]; readonly closures: readonly MarketClosure[] };
    /** The domain year and grace lengths; absent: not written (the reader takes the defaults). */
    readonly domains?: { readonly yearMs: number; readonly graceMs: number };
  };
}

export interface RecorderLimits {
  readonly lineBytesMax?: number;
  readonly recordBytesMax?: number;
  readonly indexValuesMax?: number;
}

export interface ExchangeObservation {
  readonly atMs: number;
  /** The simulated agent that sent the request; null for harness traffic. */
  readonly agentId?: string | null;
  readonly request: TransportRequest;
  readonly response: TransportResponse;
}

/** A wallet mint as the harness made it (the scenario's starting funds at a created wallet's address). */
export interface MintObservation {
  readonly chain: string;
  readonly address: string;
  readonly amount: string;
  readonly token: string | null;
}

export interface Recorder {
  onExchange(exchange: ExchangeObservation): void;
  /** An agent's tier was set out of band (a pro or enterprise population); once per agent. */
  onTier(agentId: string, tier: RecordedTier): void;
  /** An agent got its casino starting deposit out of band (`casino.starting_deposit`); once per agent. */
  onDeposit(agentId: string, deposit: RecordedDeposit): void;
  /** The harness minted coins or tokens at a wallet address out of band, right after the last exchange (its create). */
  onMint(mint: MintObservation): void;
  /**
   * Writes the record file (creating its directory), atomically. Call once, after the run;
   * `interrupted`: the run was cut short (Ctrl-C, SIGTERM, a crash), so the record is a prefix (`complete: false`).
   */
  finish(filePath: string, options?: { readonly interrupted?: boolean }): Promise<void>;
  /** The header the file will start with (counts so far). */
  header(): RecordHeader;
}

/** What a recording holds while it runs. */
interface Recording {
  readonly input: RecorderHeaderInput;
  readonly lineBytesMax: number;
  readonly recordBytesMax: number;
  readonly index: ProvenanceIndex;
  readonly platform: ReturnType<typeof recordedPlatform>;
  readonly tiers: Map<string, RecordedTier>;
  readonly deposits: Map<string, RecordedDeposit>;
  readonly mints: RecordedMint[];
  readonly lines: string[];
  readonly dropped: DroppedCounts;
  recordBytes: number;
  lastAtMs: number;
  stopped: boolean;
  finished: boolean;
}

export function createRecorder(input: RecorderHeaderInput, limits: RecorderLimits = {}): Recorder {
  assert(Number.isSafeInteger(input.startMs) && input.startMs >= 0, 'record start is a non-negative integer');
  const state: Recording = {
    input,
    lineBytesMax: limits.lineBytesMax ?? LINE_BYTES_MAX,
    recordBytesMax: limits.recordBytesMax ?? RECORD_BYTES_MAX,
    index: new ProvenanceIndex(limits.indexValuesMax === undefined ? {} : { indexValuesMax: limits.indexValuesMax }),
    platform: recordedPlatform(input),
    tiers: new Map(),
    deposits: new Map(),
    mints: [],
    lines: [],
    dropped: { exchanges: 0, index_values: 0, bodies: 0, sites: 0 },
    recordBytes: 0,
    lastAtMs: input.startMs,
    stopped: false,
    finished: false,
  };
  const header = (): RecordHeader => headerOf(state);
  const finish = async (filePath: string, options: { readonly interrupted?: boolean } = {}): Promise<void> => {
    assert(!state.finished, 'a recorder finishes once');
    state.finished = true;
    await writeLines(filePath, header(), state.lines, options.interrupted === true);
  };
  return {
    onExchange: (observation) => recordExchange(state, observation),
    onTier: (agentId, tier) => recordTier(state, agentId, tier),
    onDeposit: (agentId, deposit) => recordDeposit(state, agentId, deposit),
    onMint: (mint) => recordMint(state, mint),
    finish,
    header,
  };
}

function headerOf(state: Recording): RecordHeader {
  const { input, index, dropped, tiers, deposits } = state;
  return {
    format: RECORD_FORMAT,
    scenario: input.scenario,
    seed: String(input.seed),
    start_ms: input.startMs,
    end_ms: state.lastAtMs,
    exchanges: state.lines.length,
    complete: !state.stopped,
    identifier_rule: IDENTIFIER_RULE,
    platform: state.platform,
    dropped: { ...dropped, index_values: index.droppedIndexValues, sites: index.droppedSites },
    tiers: Object.fromEntries([...tiers.entries()].sort(byAgentId)),
    deposits: Object.fromEntries([...deposits.entries()].sort(byAgentId)),
    mints: [...state.mints],
  };
}

function recordMint(state: Recording, mint: MintObservation): void {
  assert(!state.finished, 'no mint is recorded after finish');
  assert(state.lines.length > 0 || state.stopped, 'a mint follows the exchange that created its wallet');
  // A mint after the recording stopped belongs to an exchange the record left out.
  if (state.stopped) return;
  if (state.mints.length >= RECORD_MINTS_MAX) {
    state.stopped = true;
    return;
  }
  state.mints.push({
    after_seq: state.lines.length,
    chain: mint.chain,
    address: mint.address,
    amount: mint.amount,
    token: mint.token,
  });
}

function recordDeposit(state: Recording, agentId: string, deposit: RecordedDeposit): void {
  const { deposits } = state;
  assert(!state.finished, 'no deposit is recorded after finish');
  assert(agentId !== '' && !deposits.has(agentId), `an agent's starting deposit is recorded once (${agentId})`);
  assert(
    deposits.size < RECORD_DEPOSITS_MAX,
    `a record lists at most ${RECORD_DEPOSITS_MAX} deposits (the scenario agent limit)`,
  );
  deposits.set(agentId, { chain: deposit.chain, amount: deposit.amount });
}

function recordTier(state: Recording, agentId: string, tier: RecordedTier): void {
  const { tiers } = state;
  assert(!state.finished, 'no tier is recorded after finish');
  assert(agentId !== '' && !tiers.has(agentId), `an agent's tier is recorded once (${agentId})`);
  assert(tiers.size < RECORD_TIERS_MAX, `a record lists at most ${RECORD_TIERS_MAX} tiers (the scenario agent limit)`);
  tiers.set(agentId, tier);
}

function recordExchange(state: Recording, observation: ExchangeObservation): void {
  const { index, lines, dropped } = state;
  assert(!state.finished, 'no exchange is recorded after finish');
  assert(
    Number.isSafeInteger(observation.atMs) && observation.atMs >= state.lastAtMs,
    `exchange times never decrease (${observation.atMs} < ${state.lastAtMs})`,
  );
  if (state.stopped) {
    dropped.exchanges++;
    return;
  }
  const request = recordRequest(observation.request);
  const { provenance, introduced } = index.observeRequest(request);
  index.observeResponse(lines.length + 1, observation.response.body);
  const exchange: RecordedExchange = {
    seq: lines.length + 1,
    at_ms: observation.atMs,
    agent: observation.agentId ?? null,
    request,
    response: recordResponse(observation.response),
    provenance,
    introduced,
  };
  const line = fitLine(exchange, state.lineBytesMax, dropped);
  if (line === null || state.recordBytes + line.bytes > state.recordBytesMax) {
    state.stopped = true;
    dropped.exchanges++;
    return;
  }
  lines.push(line.text);
  state.recordBytes += line.bytes;
  state.lastAtMs = observation.atMs;
}

function byAgentId([a]: [string, unknown], [b]: [string, unknown]): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function recordedPlatform(input: RecorderHeaderInput): RecordedPlatform {
  if (input.platform === undefined) return DEFAULT_RECORDED_PLATFORM;
  const faults = recordedFaults(input.platform.faults);
  assert(
    faults.length <= RECORD_FAULTS_MAX,
    `a record lists at most ${RECORD_FAULTS_MAX} fault windows (the scenario limit)`,
  );
  for (const fault of faults)
    assert(
      Number.isSafeInteger(fault.from_ms) && fault.from_ms >= 0 && fault.until_ms > fault.from_ms,
      'a fault window is a non-empty span of instants',
    );
  const closures = recordedClosures(input.platform.closures ?? []);
  assert(closures.length <= CLOSURES_MAX, `a record lists at most ${CLOSURES_MAX} game closures (the scenario limit)`);
  const trading = input.platform.trading;
  const domains = input.platform.domains;
  assert(
    trading === undefined ||
      (trading.shocks.length <= TRADING_LIMITS.shocksMax && trading.closures.length <= TRADING_LIMITS.closuresMax),
    'a record lists at most the scenario limit of shocks and market closures',
  );
  return {
    dispute_outcome: input.platform.disputeOutcome,
    faults,
    casino_closures: closures,
    ...(trading === undefined
      ? {}
      : { trading_shocks: recordedShocks(trading.shocks), market_closures: recordedMarketClosures(trading.closures) }),
    ...(domains === undefined ? {} : { domain_year_ms: domains.yearMs, domain_grace_ms: domains.graceMs }),
  };
}

function recordRequest(request: TransportRequest): RecordedRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers ?? {})) headers[name.toLowerCase()] = value;
  // A monero balance's view_key travels in the query: redacted as a body's secrets are.
  const base = {
    mount: request.mount,
    method: request.method,
    path: request.path,
    query: redactSecretsDeep({ ...request.query }) as Record<string, string>,
    headers,
  };
  if (request.rawBody !== undefined)
    return { ...base, raw_body: { text: request.rawBody.text, content_type: request.rawBody.contentType } };
  // No key at rest: a wallet send's keys (and any other secret field) are redacted (wallet-parse.ts).
  return request.body === undefined ? base : { ...base, body: redactSecretsDeep(request.body) as JsonValue };
}

function recordResponse(response: TransportResponse): RecordedResponse {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    const lower = name.toLowerCase();
    if (isRecordedResponseHeader(lower)) headers[lower] = value;
  }
  // A created wallet's mnemonic and monero keys are redacted: the record keeps no secret.
  return { status: response.status, headers, body: redactSecretsDeep(response.body ?? null) as JsonValue };
}

/** The exchange as one line within `lineBytesMax`, dropping the response body if needed; null when impossible. */
function fitLine(
  exchange: RecordedExchange,
  lineBytesMax: number,
  dropped: DroppedCounts,
): { text: string; bytes: number } | null {
  const text = JSON.stringify(exchange);
  const bytes = Buffer.byteLength(text, 'utf8') + 1;
  if (bytes <= lineBytesMax) return { text, bytes };
  const slim: RecordedExchange = { ...exchange, response: { ...exchange.response, body: null, body_dropped: true } };
  const slimText = JSON.stringify(slim);
  const slimBytes = Buffer.byteLength(slimText, 'utf8') + 1;
  if (slimBytes > lineBytesMax) return null;
  dropped.bodies++;
  return { text: slimText, bytes: slimBytes };
}

/** The record written whole or not at all (core/atomic-file.ts): a kill while writing leaves the previous FILE as it was. */
async function writeLines(
  filePath: string,
  header: RecordHeader,
  lines: readonly string[],
  interrupted: boolean,
): Promise<void> {
  await mkdir(dirname(filePath), { recursive: true });
  // A run cut short (Ctrl-C) is a prefix, as one a limit stopped.
  const headerLine = JSON.stringify(interrupted ? { ...header, complete: false } : header);
  await writeChunksAtomic(filePath, chunksOf(headerLine, lines));
}

function* chunksOf(headerLine: string, lines: readonly string[]): Generator<string> {
  let chunk = `${headerLine}\n`;
  for (const line of lines) {
    chunk += `${line}\n`;
    if (chunk.length >= WRITE_CHUNK_BYTES) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk !== '') yield chunk;
}
