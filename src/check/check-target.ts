/**
 * Where `afp check` sends its requests, and a fresh (model, system) pair per run.
 *
 * In-process (default): every run gets a new Platform (same seed, fixed start instant, optional
 * deliberate defects), a VirtualClock moved only by the advance-time command, and the in-process
 * transport with the JSON round-trip check on (what passes here passes over HTTP).
 * Live (`--target URL`): one server shared by every run. Runs keep apart through names: agent ids
 * carry a per-invocation session and the run number, keyless requests a never-used IP (sent as
 * X-Forwarded-For, which afp serve reads only with --trust-proxy: a note says so when it is ignored). GET /_afp/clock decides about time: a
 * manual clock is exact and advance-time moves it with POST /_afp/clock; a wall clock, or no clock
 * endpoint, means time fields are compared within a tolerance and advance-time is disabled. The
 * faucet pool is shared with every client of the server: its balance is never asserted.
 * Casino: in-process runs fund agents with simulated chain deposits (the platform's own door,
 * as the clock is); a live target has no such door, so its agents live on faucet grants.
 * Wallet: chains are funded through the wallet's mint door (POST /_afp/wallet/mint on afp serve,
 * the same mint in-process); in-process runs also read the chains' fee accounts.
 * Every capability switched off is reported as a note with its reason.
 */
import { AdminClient, type AdminAnswer, type AdminObject } from '../client/admin-client.ts';
import { AfpClient } from '../client/client.ts';
import { httpTransport } from '../client/http-transport.ts';
import type { Transport } from '../client/transport.ts';
import { inProcessTransport } from '../client/in-process.ts';
import { discoverTarget } from '../live/afp-mounts.ts';
import { VirtualClock, type Clock } from '../core/clock.ts';
import { Dispatcher } from '../http/dispatcher.ts';
import { ALL_ROUTES } from '../http/routes/index.ts';
import { Platform } from '../platform/platform.ts';
import { FEE_ACCOUNT } from '../services/wallet/chain-book.ts';
import { CHAIN_ROWS } from '../services/wallet/wallet-config.ts';
import { DEFAULT_CONFIG, type PlatformConfig } from '../services/shared/config.ts';
import { answerMint } from '../platform/wallet-mint-door.ts';
import type { DefectName } from '../services/shared/context.ts';
import { createModel, type CheckCapabilities, type CheckModel, type ModelFault, type RunNames } from './check-model.ts';
import { servedFaults } from './served-faults.ts';
import type { CheckSystem } from './model-command.ts';
import { CheckUnavailable } from './check-unavailable.ts';
import type { SentRequest } from '../live/live-session.ts';
import type { MountUrls } from '../client/transport.ts';
import type { JsonValue } from '../core/errors.ts';
import type { PriceShock } from '../services/trading/trading-record.ts';
import type { ModelClosure } from './trading/trading-state.ts';

/** In-process runs start here: a fixed instant, so the same seed gives the same answers. */
export const CHECK_START_MS = Date.parse('2025-03-01T09:30:00.000Z');
/**
 * The market closures of every in-process run: BTC spot for the run's second and third hour, ETH
 * perpetual for its second; a live target's are read from GET /_afp/platform. Tests serve the
 * same windows from `afp serve` (marketClosuresFrom).
 */
export function marketClosuresFrom(startMs: number): ModelClosure[] {
  return [
    { symbol: 'BTC-USDC', fromMs: startMs + HOUR_MS, untilMs: startMs + 3 * HOUR_MS },
    { symbol: 'ETH-PERP', fromMs: startMs + HOUR_MS, untilMs: startMs + 2 * HOUR_MS },
  ];
}
const HOUR_MS = 3_600_000;
/** Time fields of a wall-clock target are compared within this distance of the model's estimate. */
export const LOOSE_TIME_TOLERANCE_MS = 5 * 60_000;
const IP_COUNTER_MAX = 0xffff;

export interface CheckRun {
  readonly model: CheckModel;
  readonly real: CheckSystem;
}

export interface CheckTarget {
  readonly description: string;
  readonly capabilities: CheckCapabilities;
  /** Why each switched-off capability is off, one line each. */
  readonly notes: readonly string[];
  /** What only the runs could tell (keyless 429s accepted unjudged), once they are over. */
  closingNotes?(): readonly string[];
  /** Live: the last request sent over HTTP (a failure's evidence); absent in-process. */
  lastRequest?(): SentRequest | null;
  newRun(): Promise<CheckRun>;
}

/** Agent ids `ck-<session>-r<run>-a<slot>` and IPs fdaf:<session>:<run>:<n>::1 (valid IPv6 text). */
export function runNames(session: string, runIndex: number): RunNames {
  const prefix = session === '' ? `ck-r${runIndex}` : `ck-${session}-r${runIndex}`;
  const sessionHex = (session === '' ? '0' : session)
    .replace(/[^0-9a-f]/g, '')
    .padStart(8, '0')
    .slice(-8);
  const runHex = (runIndex >>> 0).toString(16).padStart(8, '0');
  let counter = 0;
  return {
    agentId: (slot) => `${prefix}-a${slot}`,
    freshIp: () => {
      counter += 1;
      if (counter > IP_COUNTER_MAX) throw new Error(`a run uses at most ${IP_COUNTER_MAX} fresh IPs`);
      return `fdaf:${sessionHex.slice(0, 4)}:${sessionHex.slice(4)}:${runHex.slice(0, 4)}:${runHex.slice(4)}:${counter.toString(16)}::1`;
    },
  };
}

export function inProcessTarget(options: { seed: number; defects?: readonly DefectName[] }): CheckTarget {
  const capabilities: CheckCapabilities = {
    styleA: true,
    exactTime: true,
    advance: true,
    pool: true,
    casino: true,
    deposits: true,
    domains: true,
    trading: true,
    wallet: true,
  };
  const defects = options.defects ?? [];
  let runIndex = 0;
  return {
    description: `in-process (a fresh platform per run from ${new Date(CHECK_START_MS).toISOString()}, virtual clock${defects.length > 0 ? `, defects: ${defects.join(', ')}` : ''})`,
    capabilities,
    notes: [],
    newRun: () => {
      runIndex += 1;
      const clock = new VirtualClock(CHECK_START_MS);
      const marketClosures = marketClosuresFrom(CHECK_START_MS);
      const platform = new Platform({
        seed: String(options.seed),
        startMs: CHECK_START_MS,
        defects,
        trading: { closures: marketClosures },
      });
      const transport = inProcessTransport({
        dispatcher: new Dispatcher(platform, ALL_ROUTES),
        clock,
        checkJsonRoundTrip: true,
      });
      const real: CheckSystem = {
        client: new AfpClient(transport),
        nowMs: () => clock.nowMs(),
        moveClock: (toMs) => {
          clock.set(toMs);
          return Promise.resolve();
        },
        deposit: (agentId, amountMicro) => {
          // The platform runs the timers due by now first, as the dispatcher does before a request.
          platform.advanceTo(clock.nowMs());
          const outcome = platform.casino.account.simulateDeposit(
            { agentId, chain: 'base', amountMicro },
            clock.nowMs(),
          );
          return Promise.resolve(
            outcome.ok
              ? { status: outcome.value.status, confirmAtMs: outcome.value.confirmAtMs }
              : { status: `${outcome.code}: ${outcome.message}`, confirmAtMs: null },
          );
        },
        walletMint: (body) =>
          Promise.resolve(
            answerMint(
              platform,
              { chain: body.chain, address: body.address, amount: body.amount, token: body.token ?? null },
              clock.nowMs(),
            ),
          ),
        walletFeeAccount: (chain) => {
          platform.advanceTo(clock.nowMs());
          return platform.wallet.chains.balanceOf(
            chain,
            CHAIN_ROWS.find((row) => row.chain === chain)?.nativeAsset ?? '',
            FEE_ACCOUNT,
          );
        },
      };
      return Promise.resolve({
        model: createModel({
          nowMs: CHECK_START_MS,
          capabilities,
          names: runNames('', runIndex),
          marketClosures,
          tradingPrices: { seed: String(options.seed), shocks: [] },
        }),
        real,
      });
    },
  };
}

export interface LiveTargetOptions {
  readonly url: string;
  /** Unique per invocation (8 hex characters): keeps this invocation's agents apart from earlier ones. */
  readonly session: string;
  /** The checker's own clock: estimates a wall-clock target's time between its answers. */
  readonly wallClock: Clock;
  readonly timeoutMs: number;
}

type ClockProbe =
  | { readonly nowMs: number; readonly mode: string }
  | { readonly reason: string; readonly dateMs: number | null };

/** A live target's transport whose failures (no answer, an unreadable one) end the check as CheckUnavailable: exit 4, not a crash. */
function unavailableWhenUnanswered(transport: Transport): Transport {
  return (request) =>
    transport(request).catch((error: unknown) => {
      throw new CheckUnavailable(error instanceof Error ? error.message : String(error), { cause: error });
    });
}

/**
 * A transport that keeps the last request it sent, as it went out (the URL its mount's base gives,
 * the body, whether a key went with it, never the key): a failure's evidence, written as a curl.
 */
function recordingLast(
  urls: MountUrls,
  transport: Transport,
): { transport: Transport; last: () => SentRequest | null } {
  let last: SentRequest | null = null;
  return {
    transport: (request) => {
      const base = (urls[request.mount] ?? '').replace(/\/$/, '');
      const query = request.query === undefined ? '' : new URLSearchParams(request.query).toString();
      last = {
        method: request.method,
        url: `${base}${request.path}${query === '' ? '' : `?${query}`}`,
        ...(request.body === undefined ? {} : { body: request.body as JsonValue }),
        auth: request.headers?.['authorization'] !== undefined,
      };
      return transport(request);
    },
    last: () => last,
  };
}

export async function liveTarget(options: LiveTargetOptions): Promise<CheckTarget> {
  const discoveryNotes: string[] = [];
  /** Whether keyless requests count by their fresh address: only where an afp serve's mounts say `trusted`. */
  let freshIps = false;
  const urls = await discoverTarget(options.url, {
    timeoutMs: options.timeoutMs,
    onNote: (note) => discoveryNotes.push(note),
    onForwardedFor: (forwardedFor) => {
      freshIps = forwardedFor === 'trusted';
    },
  });
  const sent = recordingLast(urls, unavailableWhenUnanswered(httpTransport({ urls, timeoutMs: options.timeoutMs })));
  const client = new AfpClient(sent.transport);
  const probe = await probeClock(client);
  // Read once: the settings the model takes, and trading's (below).
  const platform = await doorsOf(client).platform();
  const served = readServedSettings(platform);
  const faults = served.faults;
  const styleA = urls.faucet !== undefined && urls.escrow !== undefined;
  const manual = 'mode' in probe && probe.mode === 'manual';
  const casino = urls.casino !== undefined;
  const settings = urls.trading !== undefined && manual ? readTradingSettings(platform) : null;
  const priced = settings !== null && settings.seed !== null;
  const capabilities: CheckCapabilities = {
    styleA,
    exactTime: manual,
    advance: manual,
    pool: false,
    casino,
    deposits: false,
    domains: urls.domains !== undefined,
    trading: priced,
    wallet: urls.wallet !== undefined && manual,
    freshIps,
    freshChains: false,
  };
  const notes = [...discoveryNotes, ...liveNotes(probe, styleA, casino)];
  if (urls.domains === undefined)
    notes.push('domains commands skipped: the target announces no domains mount (GET /_afp/mounts)');
  if (urls.trading === undefined || !manual)
    notes.push(
      'trading commands skipped: they need the trading mount (GET /_afp/mounts) and a manual clock (a quote and the order must meet the same price tick)',
    );
  else if (!priced)
    notes.push(
      'trading commands skipped: GET /_afp/platform gives no trading `seed`, so the model cannot price the ticks time moves through (funding, liquidation, limit fills)',
    );
  if (urls.wallet === undefined || !manual)
    notes.push(
      'wallet commands skipped: they need the wallet mount (GET /_afp/mounts), a manual clock (block instants) and POST /_afp/wallet/mint (afp serve)',
    );
  if (settings !== null && settings.closuresNote !== null) notes.push(settings.closuresNote);
  if (faults.length > 0)
    notes.push(
      `an answer with a fault window's status inside that window is the fault, not judged: GET /_afp/platform lists ${faults
        .slice(0, FAULTS_LISTED_MAX)
        .map(
          (fault) =>
            `${fault.service}${fault.game === undefined ? '' : ` ${fault.game}`} ${fault.status}${fault.code === undefined ? '' : ` ${fault.code}`} ${new Date(fault.fromMs).toISOString()}..${new Date(fault.untilMs).toISOString()}`,
        )
        .join(', ')}${faults.length > FAULTS_LISTED_MAX ? ` and ${faults.length - FAULTS_LISTED_MAX} more` : ''}`,
    );
  if (!freshIps)
    notes.push(
      "a 429 to a request without a key is accepted, not a mismatch: the target does not say it counts the check's fresh originating addresses (an afp serve's GET /_afp/mounts says `forwarded_for: trusted` under --trust-proxy), so those requests share this host's per-IP budget with earlier runs and other clients",
    );
  const marketClosures = settings?.closures ?? [];
  const tradingPrices =
    settings?.seed === null || settings === null ? undefined : { seed: settings.seed, shocks: settings.shocks };
  const offsetMs =
    'mode' in probe
      ? probe.nowMs - options.wallClock.nowMs()
      : (probe.dateMs ?? options.wallClock.nowMs()) - options.wallClock.nowMs();
  let runIndex = 0;
  let sharedLimited = 0;
  return {
    description: `live ${options.url} (session ${options.session}; ${manual ? 'manual clock' : 'wall clock'})`,
    capabilities,
    notes,
    lastRequest: sent.last,
    closingNotes: () =>
      sharedLimited === 0
        ? []
        : [
            `${sharedLimited} request(s) without a key were answered 429 by this host's shared per-IP budget and not judged (their commands changed nothing; an afp serve started with --trust-proxy 127.0.0.1/32 counts each on its own)`,
          ],
    newRun: async () => {
      runIndex += 1;
      let currentMs = manual ? await readManualClock(client) : options.wallClock.nowMs() + offsetMs;
      const real: CheckSystem = {
        client,
        nowMs: () => (manual ? currentMs : options.wallClock.nowMs() + offsetMs),
        moveClock: async (toMs) => {
          await moveLiveClock(client, toMs);
          currentMs = toMs;
        },
        walletMint: async (body) => await mintThrough(client, body),
        sharedLimited: () => {
          sharedLimited += 1;
        },
      };
      const names = runNames(options.session, runIndex);
      return {
        model: createModel({
          nowMs: currentMs,
          capabilities,
          names,
          timeToleranceMs: manual ? 0 : LOOSE_TIME_TOLERANCE_MS,
          faults,
          config: served.config,
          marketClosures,
          ...(tradingPrices === undefined ? {} : { tradingPrices }),
        }),
        real,
      };
    },
  };
}

function liveNotes(probe: ClockProbe, styleA: boolean, casino: boolean): string[] {
  const notes = ['pool-balance assertions skipped: a live target shares its faucet pool with every other client'];
  if (!styleA)
    notes.push(
      'style-A commands skipped: the target announces no faucet and escrow mounts (GET /_afp/mounts); balances are read through GET /status',
    );
  if ('reason' in probe) notes.push(`advance-time commands disabled: ${probe.reason}`);
  else if (probe.mode !== 'manual')
    notes.push(
      `advance-time commands disabled: the target's clock runs in '${probe.mode}' mode, so exact instants cannot be hit (start it with --clock manual)`,
    );
  if (!('mode' in probe && probe.mode === 'manual'))
    notes.push(
      `time fields compared within ±${LOOSE_TIME_TOLERANCE_MS / 60_000} min and escrows shorter than 1 h not created: the target's time is estimated`,
    );
  notes.push(
    'casino deposits skipped (so no withdrawal reaches the 1,000 review threshold): a live target credits deposits only from a chain; agents are funded by the faucet alone',
  );
  if (!casino)
    notes.push(
      'casino style-A commands skipped: the target announces no casino mount (GET /_afp/mounts); only style-B bets and verifications (/casino-api) run',
    );
  else if (!('mode' in probe && probe.mode === 'manual'))
    notes.push(
      "casino tournament commands disabled: starts_at must be 'now or later' on the target's clock, which is estimated",
    );
  return notes;
}

async function probeClock(client: AfpClient): Promise<ClockProbe> {
  const answer = await doorsOf(client).clock();
  if (answer.ok) return { nowMs: answer.value.nowMs, mode: answer.value.mode };
  // No answer, or none the platform's way (a non-JSON page): the run cannot be set up (exit 4; 2 for a wrong URL).
  if (answer.kind === 'unreachable') throw new CheckUnavailable(answer.message);
  const date = answer.headers['date'];
  const dateMs = date === undefined ? Number.NaN : Date.parse(date);
  return {
    reason: `the target has no GET /_afp/clock (answered ${answer.status})`,
    dateMs: Number.isFinite(dateMs) ? dateMs : null,
  };
}

/**
 * What an afp serve was started with that the model must not assume (GET /_afp/platform): its
 * dispute outcome and domain year and grace (the config's defaults where it does not say), and its
 * fault windows (none where it lists none, or is no afp serve).
 */
function readServedSettings(answer: AdminAnswer<AdminObject>): { config: PlatformConfig; faults: ModelFault[] } {
  const view = answer.ok ? answer.value : {};
  const outcome = view['dispute_outcome'];
  const yearMs = view['domain_year_ms'];
  const graceMs = view['domain_grace_ms'];
  const config: PlatformConfig = {
    ...DEFAULT_CONFIG,
    escrow: {
      ...DEFAULT_CONFIG.escrow,
      ...(outcome === 'refund' || outcome === 'release' ? { disputeOutcome: outcome } : {}),
    },
    domains: {
      ...DEFAULT_CONFIG.domains,
      ...(isPositiveMs(yearMs) ? { yearMs } : {}),
      ...(isPositiveMs(graceMs) ? { graceMs } : {}),
    },
  };
  return { config, faults: servedFaults(view) };
}

const isPositiveMs = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value > 0;

/** The admin doors over the check's own client (its transport, its `api` mount). */
function doorsOf(client: AfpClient): AdminClient {
  return new AdminClient((request) => client.raw(request));
}

/** POST /_afp/wallet/mint as the wallet commands read it: the status and body, whatever they are. */
async function mintThrough(
  client: AfpClient,
  body: { chain: string; address: string; amount: string; token?: string },
): Promise<{ status: number; body: unknown }> {
  const answer = await doorsOf(client).walletMint(body);
  if (answer.ok) return { status: 200, body: answer.value };
  if (answer.kind === 'unreachable') throw new CheckUnavailable(answer.message);
  return { status: answer.status, body: answer.body };
}

interface TradingSettings {
  readonly closures: ModelClosure[];
  /** Why the closures are assumed none, or null when the target listed them. */
  readonly closuresNote: string | null;
  readonly seed: string | null;
  readonly shocks: PriceShock[];
}

/** The target's trading settings (GET /_afp/platform `market_closures`, `seed`, `trading_shocks`). */
function readTradingSettings(answer: AdminAnswer<AdminObject>): TradingSettings {
  if (!answer.ok && answer.kind === 'unreachable') throw new CheckUnavailable(answer.message);
  const status = answer.ok ? 200 : answer.status;
  const body = (answer.ok ? answer.value : null) as {
    market_closures?: unknown;
    seed?: unknown;
    trading_shocks?: unknown;
  } | null;
  const seed = typeof body?.seed === 'string' ? body.seed : null;
  const shocks = readShocks(body?.trading_shocks);
  const listed = body?.market_closures;
  if (!Array.isArray(listed))
    return {
      closures: [],
      closuresNote: `market closures assumed none: GET /_afp/platform answered ${status} without market_closures`,
      seed,
      shocks: shocks ?? [],
    };
  const closures: ModelClosure[] = [];
  for (const item of listed.slice(0, MARKET_CLOSURES_MAX) as unknown[]) {
    const {
      symbol,
      from_ms: fromMs,
      until_ms: untilMs,
    } = (item ?? {}) as { symbol?: unknown; from_ms?: unknown; until_ms?: unknown };
    if (typeof symbol !== 'string' || typeof fromMs !== 'number' || typeof untilMs !== 'number')
      return {
        closures: [],
        closuresNote: `market closures assumed none: GET /_afp/platform lists a malformed one: ${JSON.stringify(item).slice(0, 120)}`,
        seed,
        shocks: shocks ?? [],
      };
    closures.push({ symbol, fromMs, untilMs });
  }
  // Shocks that do not parse leave the prices unknown: trading is then skipped as without a seed.
  return { closures, closuresNote: null, seed: shocks === null ? null : seed, shocks: shocks ?? [] };
}

function readShocks(listed: unknown): PriceShock[] | null {
  if (listed === undefined) return [];
  if (!Array.isArray(listed)) return null;
  const shocks: PriceShock[] = [];
  for (const item of listed.slice(0, MARKET_CLOSURES_MAX) as unknown[]) {
    const {
      base,
      at_ms: atMs,
      move_bps: moveBps,
    } = (item ?? {}) as { base?: unknown; at_ms?: unknown; move_bps?: unknown };
    if (typeof base !== 'string' || !Number.isSafeInteger(atMs) || !Number.isSafeInteger(moveBps)) return null;
    shocks.push({ base, atMs: atMs as number, moveBps: moveBps as number });
  }
  return shocks;
}
const MARKET_CLOSURES_MAX = 1_000;
/** Windows named in the note; the rest are counted. */
const FAULTS_LISTED_MAX = 10;

async function readManualClock(client: AfpClient): Promise<number> {
  const answer = await doorsOf(client).clock();
  if (answer.ok) return answer.value.nowMs;
  throw new Error(
    answer.kind === 'unreachable' ? answer.message : `GET /_afp/clock answered ${answer.status} during the check`,
  );
}

async function moveLiveClock(client: AfpClient, toMs: number): Promise<void> {
  const answer = await doorsOf(client).moveClock({ toMs });
  if (answer.ok && answer.value.nowMs === toMs) return;
  if (!answer.ok && answer.kind === 'unreachable') throw new CheckUnavailable(answer.message);
  const shown = answer.ok
    ? `200 ${JSON.stringify({ now_ms: answer.value.nowMs })}`
    : `${answer.status} ${JSON.stringify(answer.body)}`;
  throw new Error(`POST /_afp/clock {to_ms: ${toMs}} answered ${shown}: the target's clock did not move there`);
}
