/**
 * The in-process phase: the mix replayed through `inProcessTransport({ dispatcher, clock })` — the
 * path the simulator's agents use (dispatcher: timers, routing, auth hashing, rate limiter,
 * validation, domain call, rendering) — on a fresh platform, the VirtualClock moved to each
 * exchange's recorded instant, each answer received before the next request is sent.
 *
 * How the answers are waited for: a chain of promise reactions (`MixReplay`), each answer's
 * reaction sending the next request. The transport's own work is all there (its promise per
 * request included); what the chain leaves out is harness cost, an async function's per-await
 * machinery (closures, a context, the resumption), which the bare phase does not pay either.
 * Measured on this mix: about 5% of a round (alternated in one process, 12 of 14 rounds faster).
 * One MixReplay serves every round: with a new one per round, V8 dropped the optimized code of
 * its `send` and `onAnswer` at the start of each round (it had embedded the previous round's
 * objects; --trace-deopt: "embedded weak objects cleared") and ran them unoptimized until they
 * were compiled again, a harness cost the bare phase's loop does not pay.
 *
 * What is timed: the whole replay (clock moves, transport calls, reactions). Building the
 * platform is not. Each answer's status is compared with the original run's: determinism makes
 * them equal, so any difference (`statusMismatches`) means the replay is not the mix's traffic.
 */
import { inProcessTransport } from '../src/client/in-process.ts';
import type { Transport, TransportResponse } from '../src/client/transport.ts';
import { VirtualClock } from '../src/core/clock.ts';
import { Dispatcher } from '../src/http/dispatcher.ts';
import { ALL_ROUTES } from '../src/http/routes/index.ts';
import type { Platform } from '../src/platform/platform.ts';
import { measureRound, PreviousRound, type RoundResult } from './measure.ts';
import { applyTierAfter, freshPlatform, type MixExchange, type TrafficMix } from './traffic-mix.ts';

export interface InProcessRound extends RoundResult {
  readonly statusMismatches: number;
}

const previous = new PreviousRound();

export async function inProcessRound(mix: TrafficMix): Promise<InProcessRound> {
  const clock = new VirtualClock(mix.startMs);
  const platform = freshPlatform(mix);
  const transport = inProcessTransport({ dispatcher: new Dispatcher(platform, ALL_ROUTES), clock });
  let statusMismatches = 0;
  const round = await measureRound(async () => {
    statusMismatches = await replay.run(mix.exchanges, clock, platform, transport);
    return { ops: mix.exchanges.length, requests: mix.exchanges.length };
  });
  previous.replace({ platform, transport });
  return { ...round, statusMismatches };
}

/**
 * The exchanges sent one after the other: `send` moves the clock and sends exchange `index`; the
 * answer's reaction (`onAnswer`, one function for the whole replay) checks it, applies the tier
 * change that followed it, and sends the next. Resolves with the count of status mismatches.
 * `run` points it at a round's exchanges, clock, platform and transport (see the header: one
 * instance for every round); rounds run one after the other, never two at once.
 */
class MixReplay {
  // Set by `run` for each round.
  private exchanges: readonly MixExchange[] = [];
  private clock!: VirtualClock;
  private platform!: Platform;
  private transport!: Transport;
  private index = -1;
  private mismatches = 0;
  private done: (mismatches: number) => void = () => undefined;
  private fail: (error: unknown) => void = () => undefined;
  private readonly onAnswer = (response: TransportResponse): void => {
    try {
      this.answered(response);
    } catch (error) {
      this.fail(error);
    }
  };
  private readonly onFailure = (error: unknown): void => {
    this.fail(error);
  };

  run(
    exchanges: readonly MixExchange[],
    clock: VirtualClock,
    platform: Platform,
    transport: Transport,
  ): Promise<number> {
    if (this.index >= 0 && this.index < this.exchanges.length) throw new Error('MixReplay: a round is still running');
    this.exchanges = exchanges;
    this.clock = clock;
    this.platform = platform;
    this.transport = transport;
    this.index = -1;
    this.mismatches = 0;
    return new Promise((resolve, reject) => {
      this.done = resolve;
      this.fail = reject;
      this.send();
    });
  }

  private send(): void {
    const exchange = this.exchanges[++this.index];
    if (exchange === undefined) {
      this.done(this.mismatches);
      return;
    }
    if (exchange.atMs > this.clock.nowMs()) this.clock.set(exchange.atMs);
    this.transport(exchange.request).then(this.onAnswer, this.onFailure);
  }

  private answered(response: TransportResponse): void {
    const exchange = this.exchanges[this.index] as MixExchange;
    if (response.status !== exchange.status) this.mismatches++;
    if (exchange.tierAfter !== undefined) applyTierAfter(this.platform, exchange);
    this.send();
  }
}

/** One replay for every round (see MixReplay). */
const replay = new MixReplay();
