/**
 * Replay set-up: what the simulator set outside HTTP, reproduced on the target (pure; the CLI
 * sends the calls). Two parts:
 *   - platform settings: the record's `platform` (dispute outcome, fault windows, casino game
 *     closures, trading shocks and market closures, domain year and grace) against the
 *     target's `GET /_afp/platform`; each differing setting is a `setup` difference. A target
 *     without that endpoint cannot be verified: a note says so, and what will differ.
 *   - tiers: right after the exchange whose recorded answer issued an agent's key (a registration:
 *     `api_key` and `agent_id` in the body) for an agent the record lists in `tiers`, the target is
 *     told that agent's tier (`POST /_afp/tier`). The agent id is caller-chosen, so the live one is
 *     the same. A target without that endpoint is noted once and not asked again.
 *   - casino starting deposits: right after the same exchange (and after its tier call, the
 *     simulator's order), an agent the record lists in `deposits` gets its simulated chain deposit
 *     (`POST /_afp/casino/deposit`), credited on the target's clock as it was in the run.
 *   - wallet mints: right after the exchange that created a wallet, each coin or token the harness
 *     minted at its addresses (the record's `mints`, `after_seq` that exchange) is minted on the
 *     target (`POST /_afp/wallet/mint`) at the live address the recorded one is bound to.
 * Invariants: one call of each kind per agent (per recorded mint for mints); the first unsupported
 * answer stops that kind.
 */
import type { JsonValue } from '../core/errors.ts';
import type { ReplayDifference } from './difference.ts';
import { isObject } from './json-pointer.ts';
import {
  DEFAULT_RECORDED_PLATFORM,
  recordedDomainGraceMs,
  recordedDomainYearMs,
  type RecordedClosure,
  type RecordedDeposit,
  type RecordedExchange,
  type RecordedFault,
  type RecordedMarketClosure,
  type RecordedMint,
  type RecordedPlatform,
  type RecordedShock,
  type RecordedTier,
} from './record-format.ts';

export const PLATFORM_ENDPOINT = '_afp/platform';
export const TIER_ENDPOINT = '_afp/tier';
export const DEPOSIT_ENDPOINT = '_afp/casino/deposit';
export const MINT_ENDPOINT = '_afp/wallet/mint';

export interface TierCall {
  /** The exchange after which the call is sent. */
  readonly seq: number;
  readonly agentId: string;
  readonly tier: RecordedTier;
}

export interface DepositCall {
  /** The exchange after which the call is sent. */
  readonly seq: number;
  readonly agentId: string;
  readonly deposit: RecordedDeposit;
}

/** A wallet mint to re-issue: the recorded one, `address` already the live address it is bound to. */
export interface MintCall {
  /** The exchange after which the call is sent (the wallet's create). */
  readonly seq: number;
  readonly chain: string;
  readonly address: string;
  readonly amount: string;
  readonly token: string | null;
}

/** The outcome of a set-up call (tier, deposit or mint). */
export type SetupOutcome =
  | { readonly kind: 'applied' }
  /** The target has no such endpoint (not afp serve, or an older one). */
  | { readonly kind: 'unsupported'; readonly status: number }
  /** The endpoint answered but did not apply it (the agent is unknown on the target). */
  | { readonly kind: 'refused'; readonly status: number; readonly message: string };

export type TierOutcome = SetupOutcome;

/** The target's `GET /_afp/platform` body as a RecordedPlatform, or null when it is not one. */
export function parsePlatformView(body: unknown): RecordedPlatform | null {
  if (!isObject(body)) return null;
  const outcome = body['dispute_outcome'];
  const faults = body['faults'];
  const closures = body['casino_closures'] ?? [];
  if ((outcome !== 'refund' && outcome !== 'release') || !Array.isArray(faults) || !Array.isArray(closures))
    return null;
  const parsed: RecordedFault[] = [];
  for (const fault of faults as unknown[]) {
    if (!isObject(fault)) return null;
    const { service, from_ms: fromMs, until_ms: untilMs, status } = fault;
    if (
      typeof service !== 'string' ||
      !Number.isSafeInteger(fromMs) ||
      !Number.isSafeInteger(untilMs) ||
      (status !== 500 && status !== 503)
    )
      return null;
    parsed.push({ service, from_ms: fromMs, until_ms: untilMs, status } as RecordedFault);
  }
  const parsedClosures: RecordedClosure[] = [];
  for (const closure of closures as unknown[]) {
    if (!isObject(closure)) return null;
    const { game, from_ms: fromMs, until_ms: untilMs } = closure;
    if (typeof game !== 'string' || !Number.isSafeInteger(fromMs) || !Number.isSafeInteger(untilMs)) return null;
    parsedClosures.push({ game, from_ms: fromMs as number, until_ms: untilMs as number });
  }
  const trading = parseTradingView(body);
  if (trading === null) return null;
  const domains: { domain_year_ms?: number; domain_grace_ms?: number } = {};
  for (const key of ['domain_year_ms', 'domain_grace_ms'] as const) {
    const value = body[key];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || (value as number) < 0) return null;
    domains[key] = value as number;
  }
  return { dispute_outcome: outcome, faults: parsed, casino_closures: parsedClosures, ...trading, ...domains };
}

/** A served platform's trading settings (absent on an older afp serve: none), or null when malformed. */
function parseTradingView(
  body: Record<string, unknown>,
): { trading_shocks: RecordedShock[]; market_closures: RecordedMarketClosure[] } | null {
  const shocks = body['trading_shocks'] ?? [];
  const closures = body['market_closures'] ?? [];
  if (!Array.isArray(shocks) || !Array.isArray(closures)) return null;
  const parsedShocks: RecordedShock[] = [];
  for (const shock of shocks as unknown[]) {
    if (!isObject(shock)) return null;
    const { base, at_ms: atMs, move_bps: moveBps } = shock;
    if (typeof base !== 'string' || !Number.isSafeInteger(atMs) || !Number.isSafeInteger(moveBps)) return null;
    parsedShocks.push({ base, at_ms: atMs as number, move_bps: moveBps as number });
  }
  const parsedClosures: RecordedMarketClosure[] = [];
  for (const closure of closures as unknown[]) {
    if (!isObject(closure)) return null;
    const { symbol, from_ms: fromMs, until_ms: untilMs } = closure;
    if (typeof symbol !== 'string' || !Number.isSafeInteger(fromMs) || !Number.isSafeInteger(untilMs)) return null;
    parsedClosures.push({ symbol, from_ms: fromMs as number, until_ms: untilMs as number });
  }
  return { trading_shocks: parsedShocks, market_closures: parsedClosures };
}

/** One `setup` finding per differing setting: the dispute outcome, each fault window by position. */
export function platformFindings(expected: RecordedPlatform, actual: RecordedPlatform): ReplayDifference[] {
  const findings: ReplayDifference[] = [];
  if (expected.dispute_outcome !== actual.dispute_outcome) {
    findings.push({
      kind: 'setup',
      pointer: 'platform/dispute_outcome',
      expected: expected.dispute_outcome,
      actual: actual.dispute_outcome,
    });
  }
  const count = Math.max(expected.faults.length, actual.faults.length);
  for (let index = 0; index < count; index++) {
    const want = faultJson(expected.faults[index]);
    const have = faultJson(actual.faults[index]);
    if (JSON.stringify(want) !== JSON.stringify(have))
      findings.push({ kind: 'setup', pointer: `platform/faults/${index}`, expected: want, actual: have });
  }
  const wanted = closuresOf(expected);
  const served = closuresOf(actual);
  for (let index = 0; index < Math.max(wanted.length, served.length); index++) {
    const want = closureJson(wanted[index]);
    const have = closureJson(served[index]);
    if (JSON.stringify(want) !== JSON.stringify(have))
      findings.push({ kind: 'setup', pointer: `platform/casino_closures/${index}`, expected: want, actual: have });
  }
  listFindings(
    findings,
    'platform/trading_shocks',
    expected.trading_shocks ?? [],
    actual.trading_shocks ?? [],
    shockJson,
  );
  listFindings(
    findings,
    'platform/market_closures',
    expected.market_closures ?? [],
    actual.market_closures ?? [],
    marketClosureJson,
  );
  if (recordedDomainYearMs(expected) !== recordedDomainYearMs(actual))
    findings.push({
      kind: 'setup',
      pointer: 'platform/domain_year_ms',
      expected: recordedDomainYearMs(expected),
      actual: recordedDomainYearMs(actual),
    });
  if (recordedDomainGraceMs(expected) !== recordedDomainGraceMs(actual))
    findings.push({
      kind: 'setup',
      pointer: 'platform/domain_grace_ms',
      expected: recordedDomainGraceMs(expected),
      actual: recordedDomainGraceMs(actual),
    });
  return findings;
}

/** One finding per position where the recorded and served lists differ. */
function listFindings<T>(
  findings: ReplayDifference[],
  pointer: string,
  wanted: readonly T[],
  served: readonly T[],
  json: (item: T | undefined) => JsonValue,
): void {
  for (let index = 0; index < Math.max(wanted.length, served.length); index++) {
    const want = json(wanted[index]);
    const have = json(served[index]);
    if (JSON.stringify(want) !== JSON.stringify(have))
      findings.push({ kind: 'setup', pointer: `${pointer}/${index}`, expected: want, actual: have });
  }
}

function shockJson(shock: RecordedShock | undefined): JsonValue {
  return shock === undefined ? null : { base: shock.base, at_ms: shock.at_ms, move_bps: shock.move_bps };
}

function marketClosureJson(closure: RecordedMarketClosure | undefined): JsonValue {
  return closure === undefined
    ? null
    : { symbol: closure.symbol, from_ms: closure.from_ms, until_ms: closure.until_ms };
}

function closuresOf(platform: RecordedPlatform): readonly RecordedClosure[] {
  return platform.casino_closures ?? [];
}

function closureJson(closure: RecordedClosure | undefined): JsonValue {
  return closure === undefined ? null : { game: closure.game, from_ms: closure.from_ms, until_ms: closure.until_ms };
}

function faultJson(fault: RecordedFault | undefined): JsonValue {
  return fault === undefined
    ? null
    : { service: fault.service, from_ms: fault.from_ms, until_ms: fault.until_ms, status: fault.status };
}

export function isDefaultPlatform(platform: RecordedPlatform): boolean {
  return platformFindings(DEFAULT_RECORDED_PLATFORM, platform).length === 0;
}

/** The command line that sets a target up like the record (`scenarioFile`: the scenario's file, when known). */
export function setupCommand(options: {
  platform: RecordedPlatform;
  startMs: number;
  scenarioName: string;
  scenarioFile: string | null;
}): string {
  if (isDefaultPlatform(options.platform))
    return `afp serve --clock manual --start ${new Date(options.startMs).toISOString()} (no --scenario: the record has the default settings)`;
  return `afp serve --clock manual --scenario ${options.scenarioFile ?? `<the file of scenario '${options.scenarioName}'>`}`;
}

/** The note for a target that cannot show its settings: what the record needs, and what will differ. */
export function unverifiableNote(platform: RecordedPlatform, why: string): string {
  const parts = [`the target's platform settings cannot be verified (${why})`];
  if (platform.faults.length > 0)
    parts.push(
      `the record has ${platform.faults.length} fault window(s): responses inside them will differ unless the target fails the same way`,
    );
  if (closuresOf(platform).length > 0)
    parts.push(
      `the record has ${closuresOf(platform).length} casino game closure(s): bets on those games inside them will differ unless the target closes them too`,
    );
  const shocks = platform.trading_shocks?.length ?? 0;
  const marketClosures = platform.market_closures?.length ?? 0;
  if (shocks + marketClosures > 0)
    parts.push(
      `the record has ${shocks} trading price shock(s) and ${marketClosures} market closure(s): quotes, fills and orders on those markets will differ unless the target has them too`,
    );
  if (
    recordedDomainYearMs(platform) !== recordedDomainYearMs(DEFAULT_RECORDED_PLATFORM) ||
    recordedDomainGraceMs(platform) !== recordedDomainGraceMs(DEFAULT_RECORDED_PLATFORM)
  ) {
    parts.push(
      `the record's domain year (${recordedDomainYearMs(platform)} ms) and grace (${recordedDomainGraceMs(platform)} ms) are not the defaults: domain expiries and prices will differ on a target with the defaults`,
    );
  }
  if (platform.dispute_outcome !== DEFAULT_RECORDED_PLATFORM.dispute_outcome)
    parts.push(
      `disputes ended by their window resolve with '${platform.dispute_outcome}' in the record and will differ on a target with the default`,
    );
  return parts.join('; ');
}

/** The agent whose key the exchange's recorded answer issued (a registration), else null. */
export function issuedAgentId(exchange: RecordedExchange): string | null {
  const body = exchange.response.body;
  if (!isObject(body) || typeof body['api_key'] !== 'string' || typeof body['agent_id'] !== 'string') return null;
  return body['agent_id'];
}

/** What a set-up outcome gives: findings (a refused call), a note (an unsupported one) and whether it was unsupported. */
function judgeSetup(
  outcome: SetupOutcome,
  describe: {
    readonly pointer: string;
    readonly expected: JsonValue;
    readonly unsupportedNote: (status: number) => string;
  },
): { findings: ReplayDifference[]; note: string | null; unsupported: boolean } {
  switch (outcome.kind) {
    case 'applied':
      return { findings: [], note: null, unsupported: false };
    case 'refused': {
      const finding: ReplayDifference = {
        kind: 'setup',
        pointer: describe.pointer,
        expected: describe.expected,
        actual: `not applied (HTTP ${outcome.status})`,
        note: outcome.message,
      };
      return { findings: [finding], note: null, unsupported: false };
    }
    case 'unsupported':
      return { findings: [], note: describe.unsupportedNote(outcome.status), unsupported: true };
  }
}

/**
 * One kind of per-agent set-up call: which agents the record lists (with what), the call `C` due
 * right after an agent's registration (once per agent), and the findings and note an outcome gives;
 * after the first unsupported answer no more calls are due.
 */
class AgentSetupPlan<V, C extends { readonly seq: number; readonly agentId: string }> {
  private readonly listedValues: Readonly<Record<string, V>>;
  private readonly applied = new Set<string>();
  private unsupported = false;
  private readonly describe: {
    readonly pointer: string;
    readonly expected: (value: V) => JsonValue;
    readonly unsupportedNote: (listed: number, status: number) => string;
    readonly call: (seq: number, agentId: string, value: V) => C;
    readonly valueOf: (call: C) => V;
  };

  constructor(listed: Readonly<Record<string, V>>, describe: AgentSetupPlan<V, C>['describe']) {
    this.listedValues = listed;
    this.describe = describe;
  }

  get listed(): number {
    return Object.keys(this.listedValues).length;
  }

  /** The call due right after `exchange`, if its recorded answer issued a listed agent's key. */
  callAfter(exchange: RecordedExchange): C | null {
    if (this.unsupported) return null;
    const agentId = issuedAgentId(exchange);
    if (agentId === null || !Object.hasOwn(this.listedValues, agentId) || this.applied.has(agentId)) return null;
    this.applied.add(agentId);
    return this.describe.call(exchange.seq, agentId, this.listedValues[agentId] as V);
  }

  /** Findings (a refused call) and a note (the first unsupported answer) for one outcome. */
  observe(call: C, outcome: SetupOutcome): { findings: ReplayDifference[]; note: string | null } {
    const { findings, note, unsupported } = judgeSetup(outcome, {
      pointer: `${this.describe.pointer}/${call.agentId}`,
      expected: this.describe.expected(this.describe.valueOf(call)),
      unsupportedNote: (status) => this.describe.unsupportedNote(this.listed, status),
    });
    if (unsupported) this.unsupported = true;
    return { findings, note };
  }
}

/** Decides the tier calls of a replay and turns their outcomes into findings and notes. */
export class TierPlan extends AgentSetupPlan<RecordedTier, TierCall> {
  constructor(tiers: Readonly<Record<string, RecordedTier>>) {
    super(tiers, {
      pointer: 'tier',
      expected: (tier) => tier,
      unsupportedNote: (listed, status) =>
        `the target has no POST /${TIER_ENDPOINT} (answered ${status}): the record's ${listed} pro/enterprise agent(s) keep the target's default tier, so their rate-limit headers and 429s will differ`,
      call: (seq, agentId, tier) => ({ seq, agentId, tier }),
      valueOf: (call) => call.tier,
    });
  }
}

/** Decides the casino starting-deposit calls of a replay, as TierPlan does the tier calls. */
export class DepositPlan extends AgentSetupPlan<RecordedDeposit, DepositCall> {
  constructor(deposits: Readonly<Record<string, RecordedDeposit>>) {
    super(deposits, {
      pointer: 'deposit',
      expected: (deposit) => ({ chain: deposit.chain, amount: deposit.amount }),
      unsupportedNote: (listed, status) =>
        `the target has no POST /${DEPOSIT_ENDPOINT} (answered ${status}): the record's ${listed} agent(s) with a casino starting deposit start with no casino funds, so their bets will differ`,
      call: (seq, agentId, deposit) => ({ seq, agentId, deposit }),
      valueOf: (call) => call.deposit,
    });
  }
}

/** Decides the wallet mint calls of a replay (the record's `mints`, by the exchange they follow) and judges their outcomes. */
export class MintPlan {
  private readonly byExchange = new Map<number, RecordedMint[]>();
  private readonly total: number;
  private unsupported = false;

  constructor(mints: readonly RecordedMint[]) {
    this.total = mints.length;
    for (const mint of mints) {
      const list = this.byExchange.get(mint.after_seq);
      if (list === undefined) this.byExchange.set(mint.after_seq, [mint]);
      else list.push(mint);
    }
  }

  get listed(): number {
    return this.total;
  }

  /** The mints recorded right after `exchange`, in the order made, each at the live address `liveAddress` gives; once each. */
  callsAfter(exchange: RecordedExchange, liveAddress: (recorded: string) => string): MintCall[] {
    const mints = this.byExchange.get(exchange.seq);
    if (this.unsupported || mints === undefined) return [];
    this.byExchange.delete(exchange.seq);
    return mints.map((mint) => ({
      seq: exchange.seq,
      chain: mint.chain,
      address: liveAddress(mint.address),
      amount: mint.amount,
      token: mint.token,
    }));
  }

  observe(call: MintCall, outcome: SetupOutcome): { findings: ReplayDifference[]; note: string | null } {
    const { findings, note, unsupported } = judgeSetup(outcome, {
      pointer: `mint/${call.chain}/${call.address}`,
      expected: mintJson(call),
      unsupportedNote: (status) =>
        `the target has no POST /${MINT_ENDPOINT} (answered ${status}): the record's ${this.total} wallet mint(s) (the scenario's starting funds) are not made, so the wallets' balances, sends and swaps will differ`,
    });
    if (unsupported) this.unsupported = true;
    return { findings, note };
  }
}

function mintJson(call: MintCall): JsonValue {
  return { chain: call.chain, address: call.address, amount: call.amount, token: call.token };
}
