/**
 * LiveSession: sends afp's operations to a target through each service's dialect, paced under the
 * target's limits, and reads every answer tolerantly. It is the one door every live command uses
 * to talk to a deployment (docs/design.md "Live targets").
 *
 * - Pacing: an operation with a limit in the target file (`casino.batch: 10 per minute`) is sent at
 *   most that often: calls reserve evenly spaced slots, so concurrent callers share the pace. A
 *   slot is 1 ms more than 60 s / N: a fixed window counts up to and including its closing instant
 *   (DEPLOYED.md §1.3, a request *after* reset opens a new one), so N calls 60 s / N apart put the
 *   N + 1st on that instant and meet a 429 where the clock is exact (a manual afp serve's).
 * - 429: waited out and sent again: Retry-After when the target sends it, else `reset_at` in the
 *   body, else a doubling wait from 5 s up to 60 s (a fixed 60-second window is over by then);
 *   at most MAX_RATE_LIMIT_RETRIES times, never past the deadline. A 429 the dialect names a
 *   refusal (`refusingRateLimits`: a 24-hour window) is answered at once, as a Refusal.
 * - 503 with Retry-After: the target says it is shedding load and did not take the request (afp
 *   serve's load shedder on a busy machine does exactly this); waited out as told and sent again,
 *   within the same retry bound and deadline, and counted in `shed`. A JSON 503 without Retry-After
 *   is an answer like any other (a Refusal): nothing says it was not taken.
 * - A gateway's answer (gateway-answer.ts: a 502 or 504, or a 503 whose body is not JSON, from a
 *   proxy in front of the target): not the API's answer, so never read as one. A GET is sent again
 *   (GATEWAY_RETRIES, within the deadline); a write, or a GET still so, ends `unreachable` with
 *   `gateway` set. Each is handed to `onGateway`.
 * - X-Forwarded-For: sent when the caller names a client address (replay keeps each recorded
 *   agent's own, account set-up asks `freshClientAddress` on a serve that trusts it), and pacing
 *   slots are then per address.
 * - Answers: a 2xx is read by the dialect's row; a non-2xx becomes a Refusal with the target's own
 *   error name; what differs from the documents is handed to `onDeviation` with the request that
 *   showed it (the command turns it into a finding with a curl line). A non-JSON answer is a
 *   deviation too, never an exception. Only a network failure, a timeout or a gateway's answer is
 *   `unreachable`.
 * Time and waiting come in through the WaitClock (src/live is no door for wall time).
 * Non-goals: retrying anything but a 429, a 503 with Retry-After or a GET met by a gateway; choosing
 * severities.
 */
import type { Deadline } from '../core/deadline.ts';
import { announcedLimit } from './announced-limit.ts';
import { RateLimitLog } from './rate-limit-log.ts';
import type { WaitClock } from '../core/clock.ts';
import { dialectByName } from './dialects/index.ts';
import { rowOf, type OperationRow, type DialectRequest } from './dialects/dialect.ts';
import type { OperationInput, OperationName, OperationResult, Refusal } from './operations.ts';
import type { Target } from './target.ts';
import { openMcpAnswer, withKey } from './mcp-call.ts';
import { readAnswer, type OverLimit } from './read-answer.ts';
import { refusedAnswerOf } from '../client/answer-limits.ts';
import {
  cut,
  mountUrlsOf,
  overLimitOf,
  refusesAtOnce,
  sentRequest,
  unreachableMessage,
  type SentRequest,
} from './session-wire.ts';

export type { SentRequest } from './session-wire.ts';
import { GATEWAY_RETRIES, gatewayFate, gatewayWaitMs, isGatewayAnswer, pageText } from './gateway-answer.ts';
import type { Deviation } from './wire-reader.ts';
import { unreadableWhy } from './deviation-title.ts';
import { AdminClient } from '../client/admin-client.ts';
import { FreshClientAddresses } from './fresh-client-address.ts';
import { httpTransport } from '../client/http-transport.ts';
import type { Mount, Transport } from '../client/transport.ts';

export const MAX_RATE_LIMIT_RETRIES = 20;
const FIRST_WAIT_MS = 5_000;
const WAIT_MAX_MS = 60_000;
const DEFAULT_TIMEOUT_MS = 30_000;
const MAX_BODY_CHARS = 4 * 1024 * 1024;
/** Paced (operation, address) slots kept; beyond, the table starts over (a slot's spacing is under a minute). */
const PACED_KEYS_MAX = 100_000;
const WIND_UP_SECONDS = 60;

export interface CallDeviation {
  readonly op: OperationName;
  /** `POST /api/v1/fairness/rotate`. */
  readonly endpoint: string;
  readonly request: SentRequest;
  readonly status: number;
  readonly deviation: Deviation;
}

/** One gateway answer met by a call (gateway-answer.ts), as the session reports it. */
export interface GatewayMeeting {
  readonly op: OperationName;
  /** `POST /api/v1/bet`. */
  readonly endpoint: string;
  readonly request: SentRequest;
  readonly status: number;
  /** The page the proxy sent (cut short). */
  readonly page: string;
  /** True when the call is sent again (a GET with retries and time left); false when it ends unanswered. */
  readonly sentAgain: boolean;
  /** Times this call had been sent again already. */
  readonly retries: number;
}

export type CallOutcome<R> =
  | {
      readonly kind: 'ok';
      readonly status: number;
      readonly value: R;
      readonly request: SentRequest;
      readonly body: unknown;
    }
  | { readonly kind: 'refused'; readonly refusal: Refusal; readonly request: SentRequest }
  /** A 2xx whose essential fields could not be read (the deviations say which). */
  | {
      readonly kind: 'unreadable';
      readonly status: number;
      readonly request: SentRequest;
      readonly body: unknown;
      /** The answer was past afp's limits and not read: which one (`a body over 16 MiB`). */
      readonly why?: string;
    }
  | { readonly kind: 'unsupported'; readonly reason: string }
  | {
      readonly kind: 'unreachable';
      readonly message: string;
      readonly request: SentRequest;
      /** The status of the gateway's answer that ended the call (gateway-answer.ts); absent when none came. */
      readonly gateway?: number;
    }
  | { readonly kind: 'deadline' };

/** Per call: the client address to announce (replay keeps each recorded agent's own address). */
export interface CallOptions {
  readonly forwardedFor?: string;
}

export interface SessionOptions {
  readonly target: Target;
  readonly clock: WaitClock;
  readonly deadline: Deadline;
  readonly timeoutMs?: number;
  readonly onDeviation?: (deviation: CallDeviation) => void;
  /** Each gateway's answer a call met (gateway-answer.ts), whether it is sent again or not. */
  readonly onGateway?: (meeting: GatewayMeeting) => void;
  /** Called as each call starts (the CLI's progress line counts them). */
  readonly onCall?: () => void;
  /**
   * false: calls are not spaced under the target file's limits, because the caller sets the
   * target's time itself (a replay that moves a manual afp serve's clock to each recorded instant:
   * spacing there moved the one clock every agent shares, and ran the serve ahead of the record).
   * A 429 is still waited out. Default true.
   */
  readonly paced?: boolean;
}

interface RawAnswer {
  readonly status: number;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
  readonly json: boolean;
  readonly overLimit?: OverLimit;
}

export class LiveSession {
  readonly target: Target;
  private readonly options: SessionOptions;
  private readonly nextSlotMs = new Map<string, number>();
  /** 429s seen per operation, and how many carried Retry-After. */
  readonly rateLimited = new Map<OperationName, { count: number; withRetryAfter: number }>();
  /** 503s with Retry-After (load shed, request not taken) seen per operation, each sent again. */
  readonly shed = new Map<OperationName, number>();
  /** The 429s met per operation and the calls before them: the target's limits as measured (rate-limit-finding.ts). */
  readonly rateLimits = new RateLimitLog<SentRequest>();
  /** The last request a call sent (or was about to send): a check failure's evidence, as a curl line. */
  lastSent: SentRequest | null = null;

  private deadline: Deadline;
  private outOfTimeCount = 0;
  private unreachableCount = 0;
  private lastUnreachableMessage: string | null = null;
  /** The one sender: each service's URL (and the serve's api URL) as a mount, non-JSON answers kept. */
  private readonly transport: Transport;
  private adminClient: AdminClient | null = null;
  private readonly freshAddresses: FreshClientAddresses | null;

  constructor(options: SessionOptions) {
    this.options = options;
    this.target = options.target;
    this.freshAddresses =
      options.target.freshClientAddresses === true ? new FreshClientAddresses(options.clock.nowMs()) : null;
    this.deadline = options.deadline;
    this.transport = httpTransport({
      urls: mountUrlsOf(options.target),
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      nonJson: 'keep',
      answerCharsMax: MAX_BODY_CHARS,
    });
  }

  /** The admin doors of an afp serve target (its api URL); null for any other target. */
  admin(): AdminClient | null {
    if (!this.target.afpServe || this.target.adminUrl === null) return null;
    this.adminClient ??= AdminClient.ofUrl(this.target.adminUrl);
    return this.adminClient;
  }

  /**
   * A client address no call of this session announced yet, where the target is an afp serve that
   * counts announced addresses (Target.freshClientAddresses); undefined for any other target.
   */
  freshClientAddress(): string | undefined {
    return this.freshAddresses?.next();
  }

  /**
   * Once the budget is spent, the calls that close a run (rotation, the seed list, the balance
   * after) get `seconds` more: a budget ends the betting, never the verification of what was placed.
   */
  windUp(seconds = WIND_UP_SECONDS): void {
    if (this.deadline.passed()) this.deadline = this.deadline.renewed(seconds);
  }

  /**
   * Calls that ended unsent or unfinished because the time budget could not hold them (outcome
   * `deadline`): a probe runner compares it before and after a probe to tell a probe the budget
   * skipped from one the target did (a budget skip is exit 4, not a pass).
   */
  get outOfTimeCalls(): number {
    return this.outOfTimeCount;
  }

  /**
   * Calls the target did not answer (outcome `unreachable`: no connection, a connection closed
   * unanswered, a gateway's page): a probe runner compares it before and after a probe to tell a
   * probe the target's silence skipped (exit 4: the target stopped answering) from one its dialect
   * or its answers did. lastUnreachable is the latest such call's message, for the line that says so.
   */
  get unreachableCalls(): number {
    return this.unreachableCount;
  }

  get lastUnreachable(): string | null {
    return this.lastUnreachableMessage;
  }

  /** Whether the target offers `op` (its service has a URL and its dialect a row). */
  offers(op: OperationName): string | null {
    const service = op.split('.')[0] as keyof Target['services'];
    const entry = this.target.services[service];
    if (entry === undefined) return `the target file names no ${service} service`;
    const operation = rowOf(dialectByName(entry.dialect), op);
    if (operation === null) return `dialect ${entry.dialect} does not offer ${op}`;
    return operation.base === 'api' && this.target.adminUrl === null
      ? `${op} is served on the documents' shared api_url (style B), which only an afp serve target names`
      : null;
  }

  /** The target dialect's row for `op` (for its data, such as an escrow's expiry terms); null where it offers none. */
  row<O extends OperationName>(op: O): OperationRow<O> | null {
    const entry = this.target.services[op.split('.')[0] as keyof Target['services']];
    return entry === undefined ? null : rowOf(dialectByName(entry.dialect), op);
  }

  async call<O extends OperationName>(
    op: O,
    input: OperationInput<O>,
    apiKey: string | null,
    options: CallOptions = {},
  ): Promise<CallOutcome<OperationResult<O>>> {
    this.options.onCall?.();
    const service = op.split('.')[0] as keyof Target['services'];
    const entry = this.target.services[service];
    const dialect = entry === undefined ? null : dialectByName(entry.dialect);
    const operation = dialect === null ? null : rowOf(dialect, op);
    const baseUrl = operation?.base === 'api' ? this.target.adminUrl : entry?.url;
    if (entry === undefined || dialect === null || operation === null || baseUrl === null || baseUrl === undefined)
      return { kind: 'unsupported', reason: this.offers(op) ?? op };
    const inexpressible = operation.unsupported?.(input) ?? null;
    if (inexpressible !== null) return { kind: 'unsupported', reason: inexpressible };
    const wire = operation.request(input);
    const request = sentRequest(baseUrl, wire);
    this.lastSent = request;
    let waitMs = FIRST_WAIT_MS;
    let gatewayRetries = 0;
    for (let attempt = 0; attempt <= MAX_RATE_LIMIT_RETRIES; attempt++) {
      if (!(await this.pace(op, options.forwardedFor))) return this.outOfTime();
      let answer: RawAnswer;
      // Counted when sent: calls sent together are in flight when one of them meets a 429.
      const sentMs = this.rateLimits.sent(op, this.options.clock.nowMs());
      try {
        answer = await this.send(request, wire, operation.base === 'api' ? 'api' : wire.service, apiKey, options);
      } catch (error) {
        this.rateLimits.answered(op, null);
        this.redirectRefused(op, request, wire, error);
        return this.unreachable({
          kind: 'unreachable',
          message: `${request.method} ${request.url}: ${unreachableMessage(error)}`,
          request,
        });
      }
      const answeredMs = this.options.clock.nowMs();
      this.rateLimits.answered(op, announcedLimit(answer.headers), { sentMs, answeredMs });
      if (answer.status === 429 && !refusesAtOnce(dialect, answer.body)) {
        const told = this.toldWaitMs(op, answer);
        const wait = Math.min(WAIT_MAX_MS, told ?? waitMs);
        waitMs = Math.min(WAIT_MAX_MS, waitMs * 2);
        const retryAfter = answer.headers['retry-after'] ?? null;
        this.rateLimits.limited(op, answeredMs, { request, body: answer.body, retryAfter }, wait, this.bucketOf(op));
        if (wait > this.deadline.remainingMs()) return this.outOfTime();
        await this.options.clock.sleep(wait);
        continue;
      }
      const shed = await this.waitShed(op, answer);
      if (shed === 'out of time') return this.outOfTime();
      if (shed === 'waited') continue;
      if (isGatewayAnswer(answer.status, answer.json)) {
        const gatewayWait = gatewayWaitMs(gatewayRetries);
        const refused = this.gatewayMet(
          { op, request, wire, status: answer.status, body: answer.body },
          gatewayRetries,
        );
        if (refused !== null) return refused;
        gatewayRetries += 1;
        await this.options.clock.sleep(gatewayWait);
        continue;
      }
      return this.read(op, answer, request, wire, input);
    }
    return this.outOfTime();
  }

  /** A 503 with a Retry-After (the target shedding load): counted and waited out, unless the deadline comes first; null when it is not one. */
  private async waitShed(op: OperationName, answer: RawAnswer): Promise<'waited' | 'out of time' | null> {
    const shedWaitMs = answer.status === 503 ? retryAfterMs(answer) : null;
    if (shedWaitMs === null) return null;
    this.shed.set(op, (this.shed.get(op) ?? 0) + 1);
    if (shedWaitMs > this.deadline.remainingMs()) return 'out of time';
    await this.options.clock.sleep(shedWaitMs);
    return 'waited';
  }

  /**
   * A gateway's page met by a call (gateway-answer.ts), reported; the unreachable outcome when the
   * call is not sent again (not a GET, retries spent, or no time left for the wait), else null.
   */
  private gatewayMet(
    met: { op: OperationName; request: SentRequest; wire: DialectRequest; status: number; body: unknown },
    retries: number,
  ): { kind: 'unreachable'; message: string; request: SentRequest; gateway: number } | null {
    const { op, request, wire, status } = met;
    const sentAgain =
      wire.method === 'GET' && retries < GATEWAY_RETRIES && gatewayWaitMs(retries) <= this.deadline.remainingMs();
    const endpoint = `${wire.method} ${wire.path}`;
    this.options.onGateway?.({ op, endpoint, request, status, page: pageText(met.body), sentAgain, retries });
    if (sentAgain) return null;
    const fate = gatewayFate({ method: request.method, sentAgain, retries });
    const message = `${request.method} ${request.url}: answered ${status} by a gateway in front of the target, not by its API (${fate})`;
    return this.unreachable({ kind: 'unreachable', message, request, gateway: status });
  }

  /** A redirect afp did not follow, as a deviation of the call (a finding naming the Location). */
  private redirectRefused(op: OperationName, request: SentRequest, wire: DialectRequest, error: unknown): void {
    const breach = refusedAnswerOf(error)?.breach;
    if (breach?.kind !== 'redirect') return;
    this.options.onDeviation?.({
      op,
      endpoint: `${wire.method} ${wire.path}`,
      request,
      status: breach.status,
      deviation: {
        kind: 'redirect',
        field: '(location)',
        expected: breach.why,
        seen: breach.location.slice(0, 300),
        documented: false,
        required: true,
      },
    });
  }

  private unreachable<U extends { readonly kind: 'unreachable'; readonly message: string }>(outcome: U): U {
    this.unreachableCount += 1;
    this.lastUnreachableMessage = outcome.message;
    return outcome;
  }

  private outOfTime(): { kind: 'deadline' } {
    this.outOfTimeCount += 1;
    return { kind: 'deadline' };
  }

  private read<O extends OperationName>(
    op: O,
    answer: RawAnswer,
    request: SentRequest,
    wire: DialectRequest,
    input: OperationInput<O>,
  ): CallOutcome<OperationResult<O>> {
    const entry = this.target.services[wire.service];
    const { outcome, deviations } = readAnswer(dialectByName(entry?.dialect ?? 'A'), op, answer, input);
    const endpoint = `${wire.method} ${wire.path}`;
    for (const deviation of deviations)
      this.options.onDeviation?.({ op, endpoint, request, status: answer.status, deviation });
    switch (outcome.kind) {
      case 'refused':
        return { kind: 'refused', refusal: outcome.refusal, request };
      case 'unreadable': {
        const why = unreadableWhy(answer.overLimit, deviations);
        return {
          kind: 'unreadable',
          status: answer.status,
          request,
          body: answer.body,
          ...(why === null ? {} : { why }),
        };
      }
      case 'ok':
        return { kind: 'ok', status: answer.status, value: outcome.value, request, body: answer.body };
    }
  }

  /**
   * Waits for the operation's next paced slot; false when it lies past the deadline. Slots are kept
   * per operation and announced client address: a deployment's windows are per IP, and a replay
   * announces each recorded agent's own address.
   */
  private async pace(op: OperationName, forwardedFor: string | undefined): Promise<boolean> {
    const limit = this.target.limits[op];
    if (limit === undefined || this.options.paced === false) return !this.deadline.passed();
    // Operations the target counts together (a bucket) share one pace.
    const paced = limit.bucket === undefined ? op : `bucket:${limit.bucket}`;
    const key = forwardedFor === undefined ? paced : `${paced} ${forwardedFor}`;
    if (!this.nextSlotMs.has(key) && this.nextSlotMs.size >= PACED_KEYS_MAX) this.nextSlotMs.clear();
    const spacingMs = Math.floor(60_000 / limit.perMinute) + 1;
    const nowMs = this.options.clock.nowMs();
    const slotMs = Math.max(nowMs, this.nextSlotMs.get(key) ?? nowMs);
    if (slotMs - nowMs > this.deadline.remainingMs()) return false;
    this.nextSlotMs.set(key, slotMs + spacingMs);
    if (slotMs > nowMs) await this.options.clock.sleep(slotMs - nowMs);
    return true;
  }

  /** The bucket the target file puts `op` in with others, and its operations; null without one. */
  private bucketOf(op: OperationName): { readonly name: string; readonly ops: OperationName[] } | null {
    const name = this.target.limits[op]?.bucket;
    if (name === undefined) return null;
    const ops = Object.entries(this.target.limits)
      .filter(([, limit]) => limit.bucket === name)
      .map(([other]) => other as OperationName);
    return { name, ops };
  }

  private toldWaitMs(op: OperationName, answer: RawAnswer): number | null {
    const seen = this.rateLimited.get(op) ?? { count: 0, withRetryAfter: 0 };
    seen.count += 1;
    const retryAfter = Number(answer.headers['retry-after'] ?? Number.NaN);
    if (Number.isFinite(retryAfter) && retryAfter >= 0) seen.withRetryAfter += 1;
    this.rateLimited.set(op, seen);
    if (Number.isFinite(retryAfter) && retryAfter >= 0) return Math.max(1_000, retryAfter * 1_000);
    const resetAt =
      typeof answer.body === 'object' && answer.body !== null
        ? (answer.body as Record<string, unknown>)['reset_at']
        : undefined;
    const resetMs = typeof resetAt === 'string' ? Date.parse(resetAt) : Number.NaN;
    return Number.isFinite(resetMs) ? Math.max(1_000, resetMs - this.options.clock.nowMs()) : null;
  }

  private async send(
    request: SentRequest,
    wire: DialectRequest,
    mount: Mount,
    apiKey: string | null,
    options: CallOptions,
  ): Promise<RawAnswer> {
    const headers: Record<string, string> = {};
    if (options.forwardedFor !== undefined) headers['x-forwarded-for'] = options.forwardedFor;
    if (wire.auth && apiKey !== null) headers['authorization'] = `Bearer ${apiKey}`;
    if (wire.accept !== undefined) headers['accept'] = wire.accept;
    const body = wire.keyInBody === true && wire.body !== undefined ? withKey(wire.body, apiKey ?? '') : wire.body;
    const answer = await this.transport({
      mount,
      method: wire.method,
      path: wire.path,
      headers,
      ...(wire.query === undefined ? {} : { query: wire.query }),
      ...(body === undefined ? {} : { body }),
    });
    const overLimit = overLimitOf(answer);
    if (overLimit !== null)
      return { status: answer.status, headers: answer.headers, body: undefined, json: true, overLimit };
    if (wire.envelope === 'mcp') {
      const opened = openMcpAnswer(answer);
      return { ...opened, headers: answer.headers, body: opened.json ? opened.body : cut(String(opened.body)) };
    }
    if (answer.text === undefined)
      return { status: answer.status, headers: answer.headers, body: answer.body, json: true };
    return { status: answer.status, headers: answer.headers, body: cut(answer.text), json: false };
  }
}

/** A Retry-After header in seconds, as milliseconds (at least 1 s, at most WAIT_MAX_MS); null when absent or unreadable. */
function retryAfterMs(answer: RawAnswer): number | null {
  const seconds = Number(answer.headers['retry-after'] ?? Number.NaN);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.min(WAIT_MAX_MS, Math.max(1_000, seconds * 1_000)) : null;
}
