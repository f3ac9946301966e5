/**
 * The bare phase: the mix's domain calls made directly on the services, without the dispatcher —
 * no routing, no key hashing, no rate limiter, no rendering: the floor the in-process path is
 * compared with.
 *
 * Commands come from an untimed pre-pass: the mix replayed through the real dispatcher on a
 * replica platform whose route rows are wrapped to note every `run` call (row, command, caller,
 * originating IP, instant, whether it succeeded). So exactly the requests that reached a domain
 * call are replayed, with the caller the dispatcher authenticated (null on `auth: 'none'` rows
 * and on key-less optional calls). Timed, on a fresh platform with the same seed (determinism
 * makes every id identical): `platform.advanceTo(atMs); route.run({ platform, nowMs: atMs,
 * caller, ip }, command)`. A call whose success differs from the pre-pass is counted
 * (`outcomeMismatches`, expected 0).
 * Invariant: commands are plain data (strings, bigints, plain objects); rounds share them and
 * never mutate them.
 */
import { inProcessTransport } from '../src/client/in-process.ts';
import { VirtualClock } from '../src/core/clock.ts';
import { Dispatcher } from '../src/http/dispatcher.ts';
import type { Route } from '../src/http/route.ts';
import { ALL_ROUTES } from '../src/http/routes/index.ts';
import { measureRound, PreviousRound, type RoundResult } from './measure.ts';
import { applyTierAfter, freshPlatform, type TrafficMix } from './traffic-mix.ts';

export interface DomainCall {
  readonly atMs: number;
  readonly route: Route;
  readonly command: unknown;
  readonly callerId: string | null;
  readonly ip: string;
  readonly ok: boolean;
}

export interface BareRound extends RoundResult {
  readonly outcomeMismatches: number;
}

/** The domain calls the mix makes, in order (untimed). */
export async function captureDomainCalls(mix: TrafficMix): Promise<DomainCall[]> {
  const calls: DomainCall[] = [];
  const noting = ALL_ROUTES.map((route): Route => ({
    ...route,
    run: (context, command) => {
      const outcome = route.run(context, command);
      calls.push({
        atMs: context.nowMs,
        route,
        command,
        callerId: context.caller?.id ?? null,
        ip: context.ip,
        ok: outcome.ok,
      });
      return outcome;
    },
  }));
  const clock = new VirtualClock(mix.startMs);
  const platform = freshPlatform(mix);
  const transport = inProcessTransport({ dispatcher: new Dispatcher(platform, noting), clock });
  for (const exchange of mix.exchanges) {
    if (exchange.atMs > clock.nowMs()) clock.set(exchange.atMs);
    await transport(exchange.request);
    applyTierAfter(platform, exchange);
  }
  return calls;
}

const previous = new PreviousRound();

export async function bareRound(mix: TrafficMix, calls: readonly DomainCall[]): Promise<BareRound> {
  const platform = freshPlatform(mix);
  let outcomeMismatches = 0;
  const round = await measureRound(() => {
    for (const call of calls) {
      platform.advanceTo(call.atMs);
      const caller = call.callerId === null ? null : (platform.agents.get(call.callerId) ?? null);
      const outcome = call.route.run({ platform, nowMs: call.atMs, caller, ip: call.ip }, call.command);
      if (outcome.ok !== call.ok) outcomeMismatches++;
    }
    return Promise.resolve({ ops: calls.length, requests: mix.exchanges.length });
  });
  previous.replace(platform);
  return { ...round, outcomeMismatches };
}
