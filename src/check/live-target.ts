/**
 * `afp check`'s live target (`--target URL`): one server shared by every run. Runs keep apart
 * through names: agent ids carry a per-invocation session and the run number, keyless requests a
 * never-used IP (sent as X-Forwarded-For, which afp serve reads only with --trust-proxy: a note says
 * so when it is ignored). GET /_afp/clock decides about time: a manual clock is exact and
 * advance-time moves it with POST /_afp/clock; a wall clock, or no clock endpoint, means time
 * fields are compared within a tolerance and advance-time is disabled. The faucet pool is shared
 * with every client of the server: its balance is never asserted. Casino agents live on faucet
 * grants (no chain deposit door). Every capability switched off is a note with its reason.
 * Split from check-target.ts (the shared target interface); the doors it reads: live-target-doors.ts.
 */
import { AfpClient } from '../client/client.ts';
import { httpTransport } from '../client/http-transport.ts';
import type { MountUrls, Transport } from '../client/transport.ts';
import type { Clock } from '../core/clock.ts';
import type { JsonValue } from '../core/errors.ts';
import { discoverTarget, type SentRequest } from '../live.ts';
import { createModel, type CheckCapabilities, type ModelFault } from './check-model.ts';
import { LOOSE_TIME_TOLERANCE_MS, runNames, type CheckTarget } from './check-target.ts';
import { CheckUnavailable } from './check-unavailable.ts';
import {
  doorsOf,
  mintThrough,
  moveLiveClock,
  readManualClock,
  readServedSettings,
  readTradingSettings,
  type TradingSettings,
} from './live-target-doors.ts';
import type { CheckSystem } from './model-command.ts';

/** Windows named in the note; the rest are counted. */
const FAULTS_LISTED_MAX = 10;

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

/** The target's mounts (GET /_afp/mounts), what discovery noted, and whether keyless requests count by their fresh address. */
async function discover(
  options: LiveTargetOptions,
): Promise<{ urls: MountUrls; freshIps: boolean; discoveryNotes: string[] }> {
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
  return { urls, freshIps, discoveryNotes };
}

/** What a live target lets the check do: no pool assertions or deposits; time only on a manual clock. */
function liveCapabilities(
  urls: MountUrls,
  seen: {
    readonly styleA: boolean;
    readonly manual: boolean;
    readonly casino: boolean;
    readonly priced: boolean;
    readonly freshIps: boolean;
  },
): CheckCapabilities {
  const { styleA, manual, casino, priced, freshIps } = seen;
  return {
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
}

export async function liveTarget(options: LiveTargetOptions): Promise<CheckTarget> {
  const { urls, freshIps, discoveryNotes } = await discover(options);
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
  const capabilities = liveCapabilities(urls, { styleA, manual, casino, priced, freshIps });
  const notes = [...discoveryNotes, ...liveNotes(probe, styleA, casino)];
  notes.push(...servedNotes({ urls, manual, priced, settings, faults, freshIps }));
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

/** The notes of what the target's mounts and served settings switch off. */
function servedNotes(seen: {
  readonly urls: MountUrls;
  readonly manual: boolean;
  readonly priced: boolean;
  readonly settings: TradingSettings | null;
  readonly faults: readonly ModelFault[];
  readonly freshIps: boolean;
}): string[] {
  const { urls, manual, priced, settings, faults, freshIps } = seen;
  const notes: string[] = [];
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
  return notes;
}
