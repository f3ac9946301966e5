/**
 * The in-process phase: the mix replayed through `inProcessTransport({ dispatcher, clock })` — the
 * path the simulator's agents use (dispatcher: timers, routing, auth hashing, rate limiter,
 * validation, domain call, rendering) — on a fresh platform, the VirtualClock moved to each
 * exchange's recorded instant, each answer awaited before the next request is sent.
 *
 * What is timed: the whole replay loop (clock moves, transport calls, awaits). Building the
 * platform is not. Each answer's status is compared with the original run's: determinism makes
 * them equal, so any difference (`statusMismatches`) means the replay is not the mix's traffic.
 */
import { inProcessTransport } from '../src/client/in-process.ts';
import { VirtualClock } from '../src/core/clock.ts';
import { Dispatcher } from '../src/http/dispatcher.ts';
import { ALL_ROUTES } from '../src/http/routes/index.ts';
import { measureRound, PreviousRound, type RoundResult } from './measure.ts';
import { applyTierAfter, freshPlatform, type TrafficMix } from './traffic-mix.ts';

export interface InProcessRound extends RoundResult {
  readonly statusMismatches: number;
}

const previous = new PreviousRound();

export async function inProcessRound(mix: TrafficMix): Promise<InProcessRound> {
  const clock = new VirtualClock(mix.startMs);
  const platform = freshPlatform(mix);
  const transport = inProcessTransport({ dispatcher: new Dispatcher(platform, ALL_ROUTES), clock });
  const exchanges = mix.exchanges;
  let statusMismatches = 0;
  const round = await measureRound(async () => {
    for (const exchange of exchanges) {
      if (exchange.atMs > clock.nowMs()) clock.set(exchange.atMs);
      const response = await transport(exchange.request);
      if (response.status !== exchange.status) statusMismatches++;
      if (exchange.tierAfter !== undefined) applyTierAfter(platform, exchange);
    }
    return { ops: exchanges.length, requests: exchanges.length };
  });
  previous.replace({ platform, transport });
  return { ...round, statusMismatches };
}
