/**
 * Serve-only endpoints, answered at the HTTP edge before the dispatcher: not part of the
 * platform's contract, no platform auth, not rate limited; loopback clients only (the peer, and every
 * client the request's forwarding headers name), and beyond loopback those that send the serve's
 * admin token (admin-access.ts; docs/decisions/serve.md). The URLs they announce are the public
 * ones, or the caller's Host (announced-urls.ts).
 *   GET  /health          → { status: 'ok' }                     (every mount, as the real services)
 *   GET  /openapi.json    → the OpenAPI document of this mount's rows (every mount, any peer:
 *                          it is documentation; src/http/openapi.ts)
 *   GET  /_afp/mounts     → { mounts: { api, faucet, escrow... }, forwarded_for: trusted|ignored } (api mount;
 *                          discoverTarget reads it; forwarded_for: whether this caller's X-Forwarded-For counts);
 *                          afp serve --dialect deployed: { dialect, mounts, base_urls, forwarded_for }, on the casino's address
 *   GET  /_afp/clock      → { now_ms, now, mode }
 *   POST /_afp/clock      { to_ms } | { advance_ms } | { to: ISO } → forward only, at most
 *                          CLOCK_MOVE_MAX_MS ahead and never past CLOCK_MAX_MS (400 otherwise);
 *                          due timers run before the answer, in slices that leave the event loop
 *                          free between them (clock-move.ts: /health is never held long)
 *   GET  /_afp/state      → a health check: ledger sums (the audit in slices under the platform lock,
 *                          null while another job holds it), agents, escrows, pending timers,
 *                          and `load` (in flight, admitted, shed) when the server sheds load
 *                          and `checkpoints` (every, newest written, log entry, in flight, and
 *                          `lost_at_start`: entries and WAL frames the start found lost) with --data,
 *                          and `clock_moves` (slices run, the longest slice in ms), and `event_loop`:
 *                          the loop's own delay since start or the last reset (loop-delay.ts)
 *   POST /_afp/event-loop/reset → { event_loop }: the window so far, and a new one starts
 *   GET  /_afp/platform   → { dispute_outcome, faults: [{ service, from_ms, until_ms, status }],
 *                          casino_closures, trading_shocks, market_closures, domain_year_ms,
 *                          domain_grace_ms, seed } (seed: afp check prices trading's ticks with it)
 *                          (the settings `afp serve --scenario` applied; afp replay compares them
 *                          with the record's header)
 *   POST /_afp/tier       { agent_id, tier } → { agent_id, tier }: sets an agent's rate-limit tier
 *                          (the spec's upgrade is out of band, by e-mail; this is the stand-in's
 *                          door); 404 with `agent_id` for an unknown agent, 400 for a bad body
 *   POST /_afp/casino/deposit { agent_id, chain, amount } → the deposit (deposit_id, confirm_at_ms…):
 *                          a simulated chain deposit (the casino's own `simulateDeposit`), credited
 *                          on the server's clock at confirm_at_ms — this row never moves the clock
 *                          (move a manual clock with POST /_afp/clock; a wall clock gets there);
 *                          with `confirmed: true` it arrives confirmed and is credited at once
 *                          (afp's own funding: a replay's or a check's accounts spend no time);
 *                          `afp audit house-edge --target` funds its fresh agent through it
 *   POST /_afp/wallet/mint { chain, address, amount, token? } → the mint transaction: new coins
 *                          (or tokens, by contract address) at an address of a simulated chain, at
 *                          once (src/services/wallet/wallet-mint.ts); the wallet's only way in
 *   POST /_afp/snapshot, /_afp/revert { id }, /_afp/reset → time travel both ways
 *                          (src/server/time-travel.ts, time-travel-routes.ts); a snapshot's and a
 *                          revert's copy run in slices under the platform lock (platform-lock.ts)
 *   GET  /_afp/digest     → { digest, now_ms, now }: SHA-256 of the whole state (digest-route.ts),
 *                          in slices under the platform lock too
 *   GET  /_afp/state also shows the lock (`lock`: held, waiting, refused, jobs, slices, longest slice)
 * A table of rows, like the routes; a known path under another method answers 405.
 * Bad input: every row validates all of its input before it records or changes anything, and
 * answers a 4xx in the spec's error shape (`{ error, code }`); nothing applied, nothing logged.
 * Durability (afp serve --data): the state-changing rows hand their command to `record` (the
 * command log) after validating it and before changing platform state; the log's replay applies
 * it with the same functions (`applyClockMove`, `applyTierSet`, `applyDeposit`).
 */
import {
  fail,
  failWithStatus,
  isFailure,
  type Failure,
  type JsonObject,
  type JsonValue,
  type Outcome,
} from '../core/errors.ts';
import { formatDecimal, parseDecimal, parseNumber, type Micro } from '../core/money.ts';
import { adminRefusal } from './admin-access.ts';
import { announcedUrls } from './announced-urls.ts';
import type { EdgeAnswer, EdgeRequest } from '../http/server.ts';
import type { Mount } from '../http/route.ts';
import type { Platform } from '../platform/platform.ts';
import type { DepositView } from '../services/casino/account/account-records.ts';
import { chainList, findChain } from '../services/casino/account/supported-chains.ts';
import type { Agent, Tier } from '../services/shared/agents.ts';
import type { AdminOptions } from './admin-options.ts';
import type { ServeClock } from './serve-clock.ts';
import { mapJob } from './platform-lock.ts';
import { ledgerAuditJob } from './ledger-audit.ts';
import { resetRow, revertRow, snapshotRow } from './time-travel-routes.ts';
import { digestRow } from './digest-route.ts';
import type { WalletTx } from '../services/wallet/chain-book.ts';
import { mintBody, mintOnChain, mintRefusal } from '../services/wallet/wallet-mint.ts';

/** The platform side of a clock move (live and on replay): timers due by `toMs` run. */
export function applyClockMove(platform: Platform, toMs: number): void {
  platform.advanceTo(toMs);
}

/**
 * Sets an agent's tier (live and on replay). The same mutation the simulator makes when an agent
 * learns its key (Simulation.onKey): the dispatcher reads the tier from the agent on every request,
 * so the next request sees it.
 */
export function applyTierSet(agent: Agent, tier: Tier): void {
  agent.tier = tier;
}

/** A wallet mint (live and on replay): the same parse and mint both times (a refused one is never logged). */
export function applyWalletMint(
  platform: Platform,
  mint: { chain: string; address: string; amount: string; token: string | null },
  atMs: number,
): Outcome<WalletTx> {
  return mintOnChain(platform.wallet, mint, atMs);
}

/** A simulated chain deposit (live and on replay): credited later, on the clock. */
export function applyDeposit(
  platform: Platform,
  deposit: { agentId: string; chain: string; amountMicro: Micro; confirmed?: true },
  atMs: number,
): Outcome<DepositView> {
  return platform.casino.account.simulateDeposit(
    {
      agentId: deposit.agentId,
      chain: deposit.chain,
      amountMicro: deposit.amountMicro,
      ...(deposit.confirmed === true ? { confirmed: true } : {}),
    },
    atMs,
  );
}

interface AdminRow {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  /** false: served on every mount (health); true: on the api mount only. */
  readonly apiOnly: boolean;
  answer(request: EdgeRequest, options: AdminOptions): JsonObject | Failure | Promise<JsonObject | Failure>;
}

const ROWS: readonly AdminRow[] = [
  { method: 'GET', path: '/health', apiOnly: false, answer: () => ({ status: 'ok' }) },
  {
    method: 'GET',
    path: '/openapi.json',
    apiOnly: false,
    answer: (request, options) => openApiDocumentOf(request, options),
  },
  { method: 'GET', path: '/_afp/mounts', apiOnly: true, answer: (request, options) => mountsView(request, options) },
  { method: 'GET', path: '/_afp/clock', apiOnly: true, answer: (_request, options) => clockView(options.clock) },
  { method: 'POST', path: '/_afp/clock', apiOnly: true, answer: moveClock },
  { method: 'GET', path: '/_afp/state', apiOnly: true, answer: (_request, options) => stateRow(options) },
  {
    method: 'POST',
    path: '/_afp/event-loop/reset',
    apiOnly: true,
    answer: (_request, options) => loopDelayReset(options),
  },
  {
    method: 'GET',
    path: '/_afp/platform',
    apiOnly: true,
    answer: (_request, options) => platformView(options.platform),
  },
  { method: 'POST', path: '/_afp/tier', apiOnly: true, answer: setTier },
  { method: 'POST', path: '/_afp/casino/deposit', apiOnly: true, answer: casinoDeposit },
  { method: 'POST', path: '/_afp/wallet/mint', apiOnly: true, answer: walletMint },
  { method: 'POST', path: '/_afp/snapshot', apiOnly: true, answer: snapshotRow },
  { method: 'POST', path: '/_afp/revert', apiOnly: true, answer: revertRow },
  { method: 'POST', path: '/_afp/reset', apiOnly: true, answer: resetRow },
  { method: 'GET', path: '/_afp/digest', apiOnly: true, answer: digestRow },
];

const TIERS: readonly Tier[] = ['free', 'pro', 'enterprise'];
/**
 * The clock's last instant, 9999-01-01T00:00:00.000Z: every instant the platform renders keeps a
 * four-digit ISO year, with a year of headroom for the instants it computes ahead (escrow expiry at
 * most 90 days, tournaments 60). Past 8.64e15 ms a Date cannot even hold it.
 */
export const CLOCK_MAX_MS = Date.UTC(9999, 0, 1);
/** One move goes at most 100 years ahead: its due timers (a referral sweep a day) run before the answer, ~65 ms. */
export const CLOCK_MOVE_MAX_MS = 36_525 * 86_400_000;
const TIER_FIELDS = ['agent_id', 'tier'];

/** The intercept for one mount's server: answers admin paths, null for everything else. */
export function adminIntercept(
  mount: Mount,
  options: AdminOptions,
): (request: EdgeRequest) => EdgeAnswer | Promise<EdgeAnswer> | null {
  const rows = ROWS.filter((row) => mount === (options.adminMount ?? 'api') || !row.apiOnly);
  const paths = new Set(rows.map((row) => row.path));
  return (request) => {
    if (!paths.has(request.path)) return null;
    const row = rows.find((candidate) => candidate.path === request.path && candidate.method === request.method);
    if (row === undefined) {
      const allowed = rows
        .filter((candidate) => candidate.path === request.path)
        .map((candidate) => candidate.method)
        .join(', ');
      return failureAnswer(
        failWithStatus(405, 'BAD_REQUEST', `${request.method} is not allowed on ${request.path}; allowed: ${allowed}`),
        { allow: allowed },
      );
    }
    if (row.apiOnly) {
      const refusal = adminRefusal(request, options.adminToken ?? null);
      if (refusal !== null) return failureAnswer(refusal);
    }
    const answer = row.answer(request, options);
    const toEdge = (outcome: JsonObject | Failure): EdgeAnswer =>
      isFailure(outcome) ? failureAnswer(outcome) : { status: 200, body: outcome };
    return answer instanceof Promise ? answer.then(toEdge) : toEdge(answer);
  };
}

/** Imported on the first GET /openapi.json: its zod definitions cost a serve start ~0.15 s of CPU otherwise. */
async function openApiDocumentOf(request: EdgeRequest, options: AdminOptions): Promise<JsonObject> {
  const { openApiDocument } = await import('../http/openapi.ts');
  const mount = request.mount;
  const serverUrl = announcedUrls(options.mounts(), options.publicUrls, request.headers['host'])[mount];
  return openApiDocument(options.routes, serverUrl === undefined ? { mount } : { mount, serverUrl });
}

function failureAnswer(failure: Failure, headers?: Record<string, string>): EdgeAnswer {
  const body: JsonValue = { error: failure.message, code: failure.code, ...failure.extra };
  return headers === undefined ? { status: failure.status, body } : { status: failure.status, headers, body };
}

/** `{ mounts }`; with a dialect, `{ dialect, mounts, base_urls }` (+ `fairness`, the scheme its casino plays, when it names one). */
/** `forwarded_for`: whether this caller's X-Forwarded-For counts (afp load warns when it does not). */
function mountsView(request: EdgeRequest, options: AdminOptions): JsonObject {
  const mounts = announcedUrls(options.mounts(), options.publicUrls, request.headers['host']);
  const forwardedFor = request.forwarding ? 'trusted' : 'ignored';
  if (options.dialect === undefined) return { mounts, forwarded_for: forwardedFor };
  const baseUrls: Record<string, string> = {};
  for (const [mount, url] of Object.entries(mounts))
    baseUrls[mount] = `${url}${options.dialect.basePaths[mount as Mount] ?? ''}`;
  const { fairness, limits } = options.dialect;
  return {
    dialect: options.dialect.name,
    mounts,
    base_urls: baseUrls,
    ...(fairness === undefined ? {} : { fairness }),
    ...(limits === undefined ? {} : { limits }),
    forwarded_for: forwardedFor,
  };
}

function clockView(clock: ServeClock): JsonObject {
  const nowMs = clock.nowMs();
  return { now_ms: nowMs, now: new Date(nowMs).toISOString(), mode: clock.mode };
}

function moveClock(request: EdgeRequest, options: AdminOptions): JsonObject | Failure | Promise<JsonObject | Failure> {
  if (request.bodyFailure !== undefined) return request.bodyFailure;
  const target = targetMs(request.body, options.clock.nowMs());
  if (typeof target !== 'number') return target;
  if (options.clockMover !== undefined) {
    if (target < options.clock.nowMs())
      return fail('BAD_REQUEST', `the clock only moves forward (now ${clockView(options.clock)['now'] as string})`);
    return options.clockMover.move(target).then(() => clockView(options.clock));
  }
  const fromMs = options.clock.nowMs();
  if (!options.clock.moveTo(target))
    return fail('BAD_REQUEST', `the clock only moves forward (now ${clockView(options.clock)['now'] as string})`);
  const toMs = options.clock.nowMs();
  options.record?.({ kind: 'clock', fromMs, toMs });
  applyClockMove(options.platform, toMs);
  options.onClockMoved();
  return clockView(options.clock);
}

const CLOCK_FIELDS = ['to_ms', 'advance_ms', 'to'];

/** The instant a clock body asks for: exactly one of to_ms, advance_ms (≥ 0), to (ISO 8601). */
function targetMs(body: unknown, nowMs: number): number | Failure {
  const usage = 'send exactly one of {"to_ms": <epoch ms>}, {"advance_ms": <ms ≥ 0>}, {"to": "<ISO 8601>"}';
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return fail('BAD_REQUEST', usage);
  const fields = body as Record<string, unknown>;
  const keys = Object.keys(fields);
  if (keys.length !== 1 || !CLOCK_FIELDS.includes(keys[0] as string)) return fail('BAD_REQUEST', usage);
  const value = fields[keys[0] as string];
  if (keys[0] === 'to') {
    const parsed =
      typeof value === 'string' && value.length <= 64 && /^\d{4}-\d{2}-\d{2}T/.test(value)
        ? Date.parse(value)
        : Number.NaN;
    return Number.isSafeInteger(parsed)
      ? withinClockRange(parsed, nowMs)
      : fail('BAD_REQUEST', 'to must be an ISO 8601 date-time');
  }
  if (typeof value !== 'number' || !Number.isSafeInteger(value))
    return fail('BAD_REQUEST', `${keys[0] as string} must be a whole number of milliseconds`);
  if (keys[0] === 'advance_ms' && value < 0)
    return fail('BAD_REQUEST', 'advance_ms must not be negative: the clock only moves forward');
  return withinClockRange(keys[0] === 'advance_ms' ? nowMs + value : value, nowMs);
}

/** The instant, or a 400 when it lies past CLOCK_MAX_MS or more than CLOCK_MOVE_MAX_MS ahead. */
function withinClockRange(targetMs: number, nowMs: number): number | Failure {
  if (targetMs > CLOCK_MAX_MS)
    return fail(
      'BAD_REQUEST',
      `the clock goes no further than ${new Date(CLOCK_MAX_MS).toISOString()} (to_ms ${CLOCK_MAX_MS})`,
    );
  if (targetMs - nowMs > CLOCK_MOVE_MAX_MS)
    return fail(
      'BAD_REQUEST',
      `one move goes at most ${CLOCK_MOVE_MAX_MS} ms (100 years) ahead: the timers due on the way run before the answer`,
    );
  return targetMs;
}

/**
 * GET /_afp/state. Its ledger audit (every account's balance summed again) grows with the state:
 * under the platform lock it runs as a sliced job (ledger-audit.ts), GET /health answering between
 * slices and requests sent meanwhile following it; while another job holds the platform (a
 * snapshot, a revert...) the answer does not wait for it — it shows the lock at work — and says
 * `audit_sum_micro: null` (the audit deferred). `lock` is the lock as the request found it.
 */
function stateRow(options: AdminOptions): JsonObject | Promise<JsonObject> {
  const { lock, platform } = options;
  if (lock === undefined) return stateView(options, platform.ledger.auditSum(), undefined);
  const found = lock.view();
  if (lock.held) return stateView(options, null, found);
  return lock.job(() => mapJob(ledgerAuditJob(platform.ledger), (audit) => stateView(options, audit, found)));
}

function stateView(options: AdminOptions, audit: Micro | null, lock: JsonObject | undefined): JsonObject {
  const { platform, clock } = options;
  const sum = platform.ledger.sumMicro;
  const nextMs = platform.nextTimerMs();
  return {
    seed: platform.seed,
    ...clockView(clock),
    ledger: {
      sum_micro: String(sum),
      audit_sum_micro: audit === null ? null : String(audit),
      balanced: sum === 0n && (audit === null || audit === 0n),
      transfers: platform.ledger.transfers,
    },
    agents: platform.agents.size,
    escrows: platform.escrow.size,
    pending_timers: platform.timers.size,
    next_timer_at: nextMs === undefined ? null : new Date(nextMs).toISOString(),
    ...(options.load === undefined ? {} : { load: options.load() }),
    ...(options.checkpoints === undefined ? {} : { checkpoints: options.checkpoints() }),
    ...(options.clockMover === undefined ? {} : { clock_moves: options.clockMover.view() }),
    ...(options.loopDelay === undefined ? {} : { event_loop: options.loopDelay.view() }),
    ...(lock === undefined ? {} : { lock }),
  };
}

/** POST /_afp/event-loop/reset: the loop delay's window so far; the next starts now (nothing logged: no state changes). */
function loopDelayReset(options: AdminOptions): JsonObject | Failure {
  if (options.loopDelay === undefined) return fail('NOT_FOUND', 'the event loop delay is not measured here');
  return { event_loop: options.loopDelay.reset() };
}

function platformView(platform: Platform): JsonObject {
  return {
    dispute_outcome: platform.config.escrow.disputeOutcome,
    faults: platform.faults.map((fault) => ({
      service: fault.service,
      from_ms: fault.fromMs,
      until_ms: fault.untilMs,
      status: fault.status,
    })),
    casino_closures: platform.closures.map((closure) => ({
      game: closure.game,
      from_ms: closure.fromMs,
      until_ms: closure.untilMs,
    })),
    trading_shocks: platform.tradingSchedule.shocks.map((shock) => ({
      base: shock.base,
      at_ms: shock.atMs,
      move_bps: shock.moveBps,
    })),
    market_closures: platform.tradingSchedule.closures.map((closure) => ({
      symbol: closure.symbol,
      from_ms: closure.fromMs,
      until_ms: closure.untilMs,
    })),
    domain_year_ms: platform.config.domains.yearMs,
    domain_grace_ms: platform.config.domains.graceMs,
    seed: platform.seed,
  };
}

function setTier(request: EdgeRequest, options: AdminOptions): JsonObject | Failure {
  if (request.bodyFailure !== undefined) return request.bodyFailure;
  const usage = `send {"agent_id": "<id>", "tier": "${TIERS.join('" | "')}"}`;
  const body = request.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return fail('BAD_REQUEST', usage);
  const fields = body as Record<string, unknown>;
  const unknown = Object.keys(fields).filter((key) => !TIER_FIELDS.includes(key));
  if (unknown.length > 0)
    return fail('BAD_REQUEST', `unknown field${unknown.length > 1 ? 's' : ''} ${unknown.sort().join(', ')}; ${usage}`);
  const { agent_id: agentId, tier } = fields;
  if (typeof agentId !== 'string' || agentId === '' || agentId.length > 64)
    return fail('BAD_REQUEST', `agent_id must be an agent id; ${usage}`);
  if (typeof tier !== 'string' || !(TIERS as readonly string[]).includes(tier))
    return fail('BAD_REQUEST', `tier must be one of ${TIERS.join(', ')}`);
  const agent = options.platform.agents.get(agentId);
  if (agent === undefined) return fail('NOT_FOUND', `no agent '${agentId}'`, { agent_id: agentId });
  options.record?.({ kind: 'tier', agentId: agent.id, tier: tier as Tier, atMs: options.clock.nowMs() });
  applyTierSet(agent, tier as Tier);
  return { agent_id: agent.id, tier: agent.tier };
}

const DEPOSIT_FIELDS = ['agent_id', 'chain', 'amount', 'confirmed'];

function depositAmount(value: unknown): Micro | null {
  const parsed =
    typeof value === 'string' ? parseDecimal(value) : typeof value === 'number' ? parseNumber(value) : null;
  return typeof parsed === 'bigint' ? parsed : null;
}

const MINT_FIELDS = ['chain', 'address', 'amount', 'token'];

function walletMint(request: EdgeRequest, options: AdminOptions): JsonObject | Failure {
  if (request.bodyFailure !== undefined) return request.bodyFailure;
  const body = request.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return fail(
      'BAD_REQUEST',
      'send {"chain": "<chain>", "address": "<address>", "amount": "<whole units>", "token": "<contract>"?}',
    );
  const fields = body as Record<string, unknown>;
  const unknown = Object.keys(fields).filter((key) => !MINT_FIELDS.includes(key));
  if (unknown.length > 0)
    return fail('BAD_REQUEST', `unknown field${unknown.length > 1 ? 's' : ''} ${unknown.sort().join(', ')}`);
  const { chain, address, amount, token } = fields;
  if (
    typeof chain !== 'string' ||
    typeof address !== 'string' ||
    (typeof amount !== 'string' && typeof amount !== 'number') ||
    (token !== undefined && token !== null && typeof token !== 'string')
  ) {
    return fail(
      'BAD_REQUEST',
      'chain and address are strings, amount a decimal string or number, token (optional) a contract address',
    );
  }
  const mint = { chain, address, amount: String(amount), token: typeof token === 'string' ? token : null };
  const atMs = options.clock.nowMs();
  // Checked before the log (a refused command is never recorded), applied after it.
  const refused = mintRefusal(options.platform.wallet, mint);
  if (refused !== null) return refused;
  options.record?.({ kind: 'wallet-mint', ...mint, atMs });
  const minted = applyWalletMint(options.platform, mint, atMs);
  if (!minted.ok) return minted;
  options.onClockMoved();
  return mintBody(minted.value);
}

function casinoDeposit(request: EdgeRequest, options: AdminOptions): JsonObject | Failure {
  if (request.bodyFailure !== undefined) return request.bodyFailure;
  const usage = `send {"agent_id": "<id>", "chain": "${chainList()}", "amount": "<USDC>", "confirmed"?: true}`;
  const body = request.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return fail('BAD_REQUEST', usage);
  const fields = body as Record<string, unknown>;
  const unknown = Object.keys(fields).filter((key) => !DEPOSIT_FIELDS.includes(key));
  if (unknown.length > 0)
    return fail('BAD_REQUEST', `unknown field${unknown.length > 1 ? 's' : ''} ${unknown.sort().join(', ')}; ${usage}`);
  const { agent_id: agentId, chain } = fields;
  const amountMicro = depositAmount(fields['amount']);
  if (typeof agentId !== 'string' || agentId === '' || agentId.length > 64)
    return fail('BAD_REQUEST', `agent_id must be an agent id; ${usage}`);
  if (typeof chain !== 'string' || findChain(chain) === undefined)
    return fail('BAD_REQUEST', `chain must be one of ${chainList()}`);
  if (amountMicro === null || amountMicro <= 0n)
    return fail('BAD_REQUEST', `amount must be a positive USDC amount with at most 6 decimals; ${usage}`);
  const confirmed = fields['confirmed'];
  if (confirmed !== undefined && typeof confirmed !== 'boolean')
    return fail('BAD_REQUEST', `confirmed must be true or false; ${usage}`);
  const atOnce = confirmed === true ? { confirmed: true as const } : {};
  if (!options.platform.agents.has(agentId)) return fail('NOT_FOUND', `no agent '${agentId}'`, { agent_id: agentId });
  // Refusals the casino would give (amount range, pending deposits) come before the log: a
  // refused command is never recorded.
  const refused = options.platform.casino.account.depositRefusal({ agentId, chain, amountMicro });
  if (refused !== null) return refused;
  const atMs = options.clock.nowMs();
  options.record?.({ kind: 'deposit', agentId, chain, amountMicro, atMs, ...atOnce });
  const deposit = applyDeposit(options.platform, { agentId, chain, amountMicro, ...atOnce }, atMs);
  if (!deposit.ok) return deposit;
  options.onClockMoved();
  const view = deposit.value;
  return {
    deposit_id: view.id,
    agent_id: view.agentId,
    chain: view.chain,
    amount: formatDecimal(view.amountMicro),
    tx_hash: view.txHash,
    status: view.status,
    confirmations_required: view.confirmationsRequired,
    created_at_ms: view.createdAtMs,
    confirm_at_ms: view.confirmAtMs,
    confirm_at: new Date(view.confirmAtMs).toISOString(),
  };
}
