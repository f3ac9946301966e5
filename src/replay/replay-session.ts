/**
 * ReplaySession: the pure heart of `afp replay`. For each recorded exchange, in order:
 * `prepare` rebinds the request (rebinding.ts) and turns it into a transport request;
 * `observe` keeps the live values later requests will need (the pointers the record's
 * provenance names, known in advance through `ReferenceIndex`), diffs the live answer against
 * the recorded one (response-diff.ts) and files every finding under its seq and endpoint.
 * Set-up (replay-setup.ts): the caller files the platform check (`fileSetup`, `countSetupCall`);
 * `tierCallAfter`/`observeTier` drive the tier calls, `depositCallAfter`/`observeDeposit` the
 * casino starting deposits, `mintCallsAfter`/`observeMint` the wallets' starting funds (at the
 * live addresses the recorded ones were bound to when the create was compared). Set-up calls are counted apart from
 * exchanges, their differences are of kind `setup`, and notes say what could not be set up.
 * Wallet sends: the record keeps no key; the wallets replay creates on the target are learnt in
 * memory only (replay-keyring.ts) and each recorded send is signed with its live sender's key.
 * Live answers are redacted as the record is before they are kept or compared, so no mnemonic
 * or key reaches a difference or a report.
 * No I/O, no clock: the caller sends, paces and syncs (src/cli/replay.ts).
 *
 * Limits: at most `differencesMax` differences are kept in full (default 100,000); all are
 * counted by kind and endpoint. Live values are kept for referenced pointers only.
 */
import type { HttpMethod, Mount, TransportRequest } from '../client/transport.ts';
import { assert } from '../core/assert.ts';
import { Bindings } from './bindings.ts';
import { DIFFERENCE_KINDS, type Difference, type DifferenceKind, type ReplayDifference } from './difference.ts';
import { endpointName } from './endpoint-name.ts';
import { valueAtPointer } from './json-pointer.ts';
import type { JsonValue } from '../core/errors.ts';
import type { RecordedExchange, RecordedRequest } from './record-format.ts';
import { rebindRequest, type LiveValues } from './rebinding.ts';
import { redactedAnswer, ReplayKeyring } from './replay-keyring.ts';
import { diffResponse, type LiveAnswer } from './response-diff.ts';
import {
  DEPOSIT_ENDPOINT,
  DepositPlan,
  MINT_ENDPOINT,
  MintPlan,
  TierPlan,
  TIER_ENDPOINT,
  type DepositCall,
  type MintCall,
  type SetupOutcome,
  type TierCall,
  type TierOutcome,
} from './replay-setup.ts';
import type { RecordedDeposit, RecordedMint, RecordedTier } from './record-format.ts';

export const DIFFERENCES_MAX = 100_000;
/** Notes kept (each says once what could not be set up or verified). */
export const NOTES_MAX = 20;

/** Which (seq, pointer) pairs later requests take values from; filled in a first pass over the record. */
export class ReferenceIndex {
  private readonly bySeq = new Map<number, Set<string>>();

  add(exchange: RecordedExchange): void {
    for (const entry of exchange.provenance) {
      const pointers = this.bySeq.get(entry.from.seq) ?? new Set<string>();
      pointers.add(entry.from.pointer);
      this.bySeq.set(entry.from.seq, pointers);
    }
  }

  pointersOf(seq: number): ReadonlySet<string> | undefined {
    return this.bySeq.get(seq);
  }
}

export interface ReplayTotals {
  readonly sent: number;
  readonly differencesTotal: number;
  readonly byKind: Readonly<Record<DifferenceKind, number>>;
  /** Differences per endpoint, endpoints sorted by name. */
  readonly byEndpoint: readonly { readonly endpoint: string; readonly count: number }[];
  /** Exchanges per endpoint, sorted by name. */
  readonly sentByEndpoint: readonly { readonly endpoint: string; readonly count: number }[];
  readonly differences: readonly Difference[];
  readonly omitted: number;
  readonly bindings: number;
  /** Set-up calls sent (GET /_afp/platform, POST /_afp/tier, /_afp/casino/deposit, /_afp/wallet/mint), not counted in `sent`. */
  readonly setupCalls: number;
  /** Set-up calls per endpoint, sorted by name. */
  readonly setupByEndpoint: readonly { readonly endpoint: string; readonly count: number }[];
  /** What could not be set up or verified, once each. */
  readonly notes: readonly string[];
}

export class ReplaySession {
  readonly bindings = new Bindings();
  private readonly references: ReferenceIndex;
  private readonly exactTime: boolean;
  private readonly differencesMax: number;
  private readonly liveValues = new Map<string, string>();
  private readonly differences: Difference[] = [];
  private readonly byKind: Record<DifferenceKind, number> = { status: 0, shape: 0, value: 0, binding: 0, setup: 0 };
  private readonly byEndpoint = new Map<string, number>();
  private readonly sentByEndpoint = new Map<string, number>();
  private readonly setupByEndpoint = new Map<string, number>();
  private readonly notes: string[] = [];
  private readonly tierPlan: TierPlan;
  private readonly depositPlan: DepositPlan;
  private readonly mintPlan: MintPlan;
  private pending: { seq: number; endpoint: string; authorization: string | undefined } | null = null;
  /** The target's wallets created by this replay, in memory only (never written anywhere). */
  private readonly keyring = new ReplayKeyring();
  private sent = 0;
  private total = 0;

  constructor(options: {
    references: ReferenceIndex;
    exactTime: boolean;
    differencesMax?: number;
    tiers?: Readonly<Record<string, RecordedTier>>;
    deposits?: Readonly<Record<string, RecordedDeposit>>;
    mints?: readonly RecordedMint[];
  }) {
    this.references = options.references;
    this.tierPlan = new TierPlan(options.tiers ?? {});
    this.depositPlan = new DepositPlan(options.deposits ?? {});
    this.mintPlan = new MintPlan(options.mints ?? []);
    this.exactTime = options.exactTime;
    this.differencesMax = options.differencesMax ?? DIFFERENCES_MAX;
  }

  prepare(exchange: RecordedExchange): TransportRequest {
    assert(this.pending === null, 'one exchange is prepared at a time (replay is sequential)');
    const endpoint = endpointName(exchange.request);
    const live: LiveValues = { get: (seq, pointer) => this.liveValues.get(`${seq} ${pointer}`) };
    const rebound = rebindRequest(exchange, live, this.bindings);
    const authorization = rebound.request.headers['authorization'];
    this.pending = { seq: exchange.seq, endpoint, authorization };
    this.file(exchange.seq, endpoint, rebound.findings);
    const body = this.keyring.sign(exchange, rebound.request.body, authorization, this.bindings);
    const query = this.keyring.signQuery(exchange, rebound.request.path, rebound.request.query);
    const signed =
      body === rebound.request.body && query === rebound.request.query
        ? rebound.request
        : { ...rebound.request, query, body: body as JsonValue };
    return toTransportRequest(signed);
  }

  observe(exchange: RecordedExchange, liveAnswer: LiveAnswer): void {
    assert(this.pending?.seq === exchange.seq, 'observe answers the exchange just prepared');
    const { endpoint, authorization } = this.pending;
    this.pending = null;
    this.keyring.learn(authorization, liveAnswer.body);
    const answer = redactedAnswer(liveAnswer);
    this.sent++;
    this.sentByEndpoint.set(endpoint, (this.sentByEndpoint.get(endpoint) ?? 0) + 1);
    for (const pointer of this.references.pointersOf(exchange.seq) ?? []) {
      const value = valueAtPointer(answer.body, pointer);
      if (typeof value === 'string') this.liveValues.set(`${exchange.seq} ${pointer}`, value);
    }
    this.file(
      exchange.seq,
      endpoint,
      diffResponse(exchange.response, answer, { bindings: this.bindings, exactTime: this.exactTime }),
    );
  }

  /** Files set-up findings (kind `setup`) under `seq` (0: before the first exchange). */
  fileSetup(seq: number, endpoint: string, findings: readonly ReplayDifference[]): void {
    this.file(seq, endpoint, findings);
  }

  countSetupCall(endpoint: string): void {
    this.setupByEndpoint.set(endpoint, (this.setupByEndpoint.get(endpoint) ?? 0) + 1);
  }

  note(text: string): void {
    if (this.notes.length < NOTES_MAX && !this.notes.includes(text)) this.notes.push(text);
  }

  /** The tier call due right after `exchange` was observed, if any (replay-setup.ts TierPlan). */
  tierCallAfter(exchange: RecordedExchange): TierCall | null {
    return this.tierPlan.callAfter(exchange);
  }

  observeTier(call: TierCall, outcome: TierOutcome): void {
    this.countSetupCall(TIER_ENDPOINT);
    const { findings, note } = this.tierPlan.observe(call, outcome);
    this.file(call.seq, TIER_ENDPOINT, findings);
    if (note !== null) this.note(note);
  }

  /** The casino starting-deposit call due right after `exchange` (after its tier call), if any. */
  depositCallAfter(exchange: RecordedExchange): DepositCall | null {
    return this.depositPlan.callAfter(exchange);
  }

  observeDeposit(call: DepositCall, outcome: SetupOutcome): void {
    this.countSetupCall(DEPOSIT_ENDPOINT);
    const { findings, note } = this.depositPlan.observe(call, outcome);
    this.file(call.seq, DEPOSIT_ENDPOINT, findings);
    if (note !== null) this.note(note);
  }

  /** The wallet mints due right after `exchange` (its wallet's create), each at the live address bound to the recorded one. */
  mintCallsAfter(exchange: RecordedExchange): MintCall[] {
    return this.mintPlan.callsAfter(exchange, (recorded) => this.bindings.live(recorded) ?? recorded);
  }

  observeMint(call: MintCall, outcome: SetupOutcome): void {
    this.countSetupCall(MINT_ENDPOINT);
    const { findings, note } = this.mintPlan.observe(call, outcome);
    this.file(call.seq, MINT_ENDPOINT, findings);
    if (note !== null) this.note(note);
  }

  totals(): ReplayTotals {
    const sorted = (map: Map<string, number>): { endpoint: string; count: number }[] =>
      [...map.entries()]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([endpoint, count]) => ({ endpoint, count }));
    const byKind = Object.fromEntries(DIFFERENCE_KINDS.map((kind) => [kind, this.byKind[kind]])) as Record<
      DifferenceKind,
      number
    >;
    return {
      sent: this.sent,
      differencesTotal: this.total,
      byKind,
      byEndpoint: sorted(this.byEndpoint),
      sentByEndpoint: sorted(this.sentByEndpoint),
      differences: this.differences,
      omitted: this.total - this.differences.length,
      bindings: this.bindings.size,
      setupCalls: [...this.setupByEndpoint.values()].reduce((sum, count) => sum + count, 0),
      setupByEndpoint: sorted(this.setupByEndpoint),
      notes: [...this.notes],
    };
  }

  private file(seq: number, endpoint: string, findings: readonly ReplayDifference[]): void {
    for (const finding of findings) {
      this.total++;
      this.byKind[finding.kind]++;
      this.byEndpoint.set(endpoint, (this.byEndpoint.get(endpoint) ?? 0) + 1);
      if (this.differences.length < this.differencesMax) this.differences.push({ seq, endpoint, ...finding });
    }
  }
}

export function toTransportRequest(request: RecordedRequest): TransportRequest {
  const base = {
    mount: request.mount as Mount,
    method: request.method as HttpMethod,
    path: request.path,
    query: request.query,
    headers: request.headers,
  };
  if (request.raw_body !== undefined)
    return { ...base, rawBody: { text: request.raw_body.text, contentType: request.raw_body.content_type } };
  return request.body === undefined ? base : { ...base, body: request.body };
}
