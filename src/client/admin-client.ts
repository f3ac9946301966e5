/**
 * AdminClient: the one typed client of afp serve's admin doors (`/_afp/*` and `/health`,
 * src/server/admin.ts, time-travel-routes.ts, digest-route.ts), over a Transport like every other
 * call afp sends. Callers name a door and its typed fields; they never write a path by hand.
 *
 * Invariants: every answer is returned, never thrown: 200 with the expected shape is `ok` with a
 * typed value; any other status is `status` (with the status and the body, or the text of a
 * non-JSON answer, so a caller can tell afp serve's own refusal from "no such door"); a 200 whose
 * body lacks the expected fields is `unreadable`; a transport rejection (network, timeout) is
 * `unreachable`, and so is an answer past afp's limits (answer-limits.ts: too large, nested too
 * deep), which is no answer to read. Messages name the door (`POST /_afp/tier answered 404: …`).
 * Non-goals: retries; deciding what a refusal means (callers do: replay set-up, live funding).
 */
import { httpTransport, tooDeepMessage, tooManyMessage } from './http-transport.ts';
import { tooLargeMessage } from './answer-limits.ts';
import { describeError } from './describe-error.ts';
import { ADMIN_TOKEN_HEADER, adminTokenFromEnvironment } from '../http/admin-token.ts';
import type { Mount, Transport, TransportRequest, TransportResponse } from './transport.ts';
import type { Tier } from '../services/shared/agents.ts';

/** An admin call's outcome: the typed answer, or why there is none. */
export type AdminAnswer<T> =
  | { readonly ok: true; readonly status: number; readonly value: T }
  | {
      readonly ok: false;
      readonly kind: 'status' | 'unreadable';
      readonly status: number;
      /** The JSON body (undefined when the answer was not JSON: see `text`). */
      readonly body: unknown;
      readonly text?: string;
      /** Lower-case names (a caller may read the answer's `date`). */
      readonly headers: Readonly<Record<string, string>>;
      readonly message: string;
    }
  | {
      readonly ok: false;
      readonly kind: 'unreachable';
      readonly message: string;
      /** The network failure or timeout itself (`connect ECONNREFUSED …`), for callers that word their own message. */
      readonly detail: string;
    };

export interface ClockView {
  readonly nowMs: number;
  readonly now: string;
  /** 'manual' or 'system' (afp serve --clock). */
  readonly mode: string;
}

/** Exactly one of them (POST /_afp/clock). */
export type ClockMove = { readonly toMs: number } | { readonly advanceMs: number } | { readonly to: string };

export interface DepositAnswer {
  readonly depositId: string;
  readonly confirmAtMs: number;
  /** The whole answer (deposit_id, agent_id, chain, amount, tx_hash, status, confirm_at...). */
  readonly body: Readonly<Record<string, unknown>>;
}

interface MintRequest {
  readonly chain: string;
  readonly address: string;
  /** Whole units, as a decimal string. */
  readonly amount: string;
  /** A token's contract address; absent or null: the chain's coin. */
  readonly token?: string | null;
}

export interface SnapshotAnswer {
  readonly id: string;
  readonly atMs: number;
  readonly snapshots: number;
}

export interface TravelAnswer extends ClockView {
  readonly dropped: readonly string[];
}

export interface DigestAnswer {
  readonly digest: string;
  readonly nowMs: number;
}

/** A JSON object answer read as is (mounts, platform, state, mint: their readers live with their users). */
export type AdminObject = Readonly<Record<string, unknown>>;

export const ADMIN_TIMEOUT_MS = 10_000;
/** Characters of a refusal's text kept in its message. */
const MESSAGE_CHARS_MAX = 200;

export interface AdminClientOptions {
  /** The mount whose address serves `/_afp/*` (default 'api'). */
  readonly mount?: Mount;
  /**
   * The serve's admin token, sent in X-AFP-Admin-Token on every admin call (a serve beyond loopback
   * lets its holders in: src/server/admin-access.ts). Default: AFP_ADMIN_TOKEN from the environment,
   * so every afp command that drives a stand-in (load, check, replay, audits, conformance) passes
   * it when the user gave it; null: none.
   */
  readonly token?: string | null;
}

export class AdminClient {
  private readonly transport: Transport;
  private readonly mount: Mount;
  private readonly token: string | null;

  constructor(transport: Transport, options: AdminClientOptions = {}) {
    this.transport = transport;
    this.mount = options.mount ?? 'api';
    this.token = options.token === undefined ? adminTokenFromEnvironment() : options.token;
  }

  /** An admin client of the serve whose admin doors are at `url` (its api URL), non-JSON answers kept. */
  static ofUrl(
    url: string,
    options: { readonly timeoutMs?: number; readonly token?: string | null } = {},
  ): AdminClient {
    return new AdminClient(
      httpTransport({ urls: { api: url }, timeoutMs: options.timeoutMs ?? ADMIN_TIMEOUT_MS, nonJson: 'keep' }),
      options.token === undefined ? {} : { token: options.token },
    );
  }

  health(): Promise<AdminAnswer<AdminObject>> {
    return this.call('GET', '/health', undefined, objectAnswer);
  }

  mounts(): Promise<AdminAnswer<AdminObject>> {
    return this.call('GET', '/_afp/mounts', undefined, objectAnswer);
  }

  clock(): Promise<AdminAnswer<ClockView>> {
    return this.call('GET', '/_afp/clock', undefined, clockAnswer);
  }

  moveClock(move: ClockMove): Promise<AdminAnswer<ClockView>> {
    const body =
      'toMs' in move ? { to_ms: move.toMs } : 'advanceMs' in move ? { advance_ms: move.advanceMs } : { to: move.to };
    return this.call('POST', '/_afp/clock', body, clockAnswer);
  }

  state(): Promise<AdminAnswer<AdminObject>> {
    return this.call('GET', '/_afp/state', undefined, objectAnswer);
  }

  platform(): Promise<AdminAnswer<AdminObject>> {
    return this.call('GET', '/_afp/platform', undefined, objectAnswer);
  }

  setTier(agentId: string, tier: Tier): Promise<AdminAnswer<{ agentId: string; tier: string }>> {
    return this.call('POST', '/_afp/tier', { agent_id: agentId, tier }, (body) =>
      typeof body['agent_id'] === 'string' && typeof body['tier'] === 'string'
        ? { agentId: body['agent_id'], tier: body['tier'] }
        : null,
    );
  }

  /** A simulated chain deposit, credited on the serve's clock at `confirmAtMs` (`amount` in USDC). */
  /** `confirmed`: credited at once (afp's own funding on a manual clock spends none of its time). */
  casinoDeposit(deposit: {
    agentId: string;
    chain: string;
    amount: string;
    confirmed?: true;
  }): Promise<AdminAnswer<DepositAnswer>> {
    const body = {
      agent_id: deposit.agentId,
      chain: deposit.chain,
      amount: deposit.amount,
      ...(deposit.confirmed === true ? { confirmed: true } : {}),
    };
    return this.call('POST', '/_afp/casino/deposit', body, (answer) =>
      typeof answer['deposit_id'] === 'string' && typeof answer['confirm_at_ms'] === 'number'
        ? { depositId: answer['deposit_id'], confirmAtMs: answer['confirm_at_ms'], body: answer }
        : null,
    );
  }

  walletMint(mint: MintRequest): Promise<AdminAnswer<AdminObject>> {
    const body = {
      chain: mint.chain,
      address: mint.address,
      amount: mint.amount,
      ...(mint.token === undefined || mint.token === null ? {} : { token: mint.token }),
    };
    return this.call('POST', '/_afp/wallet/mint', body, objectAnswer);
  }

  snapshot(): Promise<AdminAnswer<SnapshotAnswer>> {
    return this.call('POST', '/_afp/snapshot', undefined, (body) =>
      typeof body['id'] === 'string' && typeof body['at_ms'] === 'number' && typeof body['snapshots'] === 'number'
        ? { id: body['id'], atMs: body['at_ms'], snapshots: body['snapshots'] }
        : null,
    );
  }

  revert(id: string): Promise<AdminAnswer<TravelAnswer>> {
    return this.call('POST', '/_afp/revert', { id }, travelAnswer);
  }

  reset(): Promise<AdminAnswer<TravelAnswer>> {
    return this.call('POST', '/_afp/reset', undefined, travelAnswer);
  }

  digest(): Promise<AdminAnswer<DigestAnswer>> {
    return this.call('GET', '/_afp/digest', undefined, (body) =>
      typeof body['digest'] === 'string' && typeof body['now_ms'] === 'number'
        ? { digest: body['digest'], nowMs: body['now_ms'] }
        : null,
    );
  }

  private async call<T>(
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
    read: (body: AdminObject) => T | null,
  ): Promise<AdminAnswer<T>> {
    const door = `${method} ${path}`;
    const headers = this.token === null ? undefined : { [ADMIN_TOKEN_HEADER]: this.token };
    const base = { mount: this.mount, method, path, ...(headers === undefined ? {} : { headers }) };
    const request: TransportRequest = body === undefined ? base : { ...base, body };
    let answer: TransportResponse;
    try {
      answer = await this.transport(request);
    } catch (error) {
      const detail = describeError(error instanceof Error && error.cause !== undefined ? error.cause : error);
      return { ok: false, kind: 'unreachable', message: `${door} got no answer: ${detail}`, detail };
    }
    const overLimit =
      answer.bodyOverBytes !== undefined
        ? tooLargeMessage(answer.bodyOverBytes)
        : answer.bodyTooDeep !== undefined
          ? tooDeepMessage(answer.bodyTooDeep)
          : answer.bodyOverValues !== undefined
            ? tooManyMessage(answer.bodyOverValues)
            : null;
    if (overLimit !== null)
      return {
        ok: false,
        kind: 'unreachable',
        message: `${door} answered ${answer.status}: ${overLimit}`,
        detail: overLimit,
      };
    const shown = answer.text ?? JSON.stringify(answer.body) ?? '';
    const refusal = {
      status: answer.status,
      headers: answer.headers,
      body: answer.body,
      ...(answer.text === undefined ? {} : { text: answer.text }),
    };
    if (answer.status !== 200)
      return { ok: false, kind: 'status', ...refusal, message: `${door} answered ${answer.status}: ${cut(shown)}` };
    const value = isObject(answer.body) ? read(answer.body) : null;
    return value === null
      ? { ok: false, kind: 'unreadable', ...refusal, message: `${door} answered 200 without its fields: ${cut(shown)}` }
      : { ok: true, status: 200, value };
  }
}

function objectAnswer(body: AdminObject): AdminObject {
  return body;
}

function clockAnswer(body: AdminObject): ClockView | null {
  const nowMs = body['now_ms'];
  return Number.isSafeInteger(nowMs) && typeof body['mode'] === 'string'
    ? { nowMs: nowMs as number, now: typeof body['now'] === 'string' ? body['now'] : '', mode: body['mode'] }
    : null;
}

function travelAnswer(body: AdminObject): TravelAnswer | null {
  const clock = clockAnswer(body);
  const dropped = body['dropped'];
  return clock !== null && Array.isArray(dropped) && dropped.every((id) => typeof id === 'string')
    ? { ...clock, dropped: dropped as string[] }
    : null;
}

function isObject(value: unknown): value is AdminObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function cut(text: string): string {
  return text.length > MESSAGE_CHARS_MAX ? `${text.slice(0, MESSAGE_CHARS_MAX)}…` : text;
}
