/**
 * The casino phase of `npm run bench`: bets per second for a population of dice bettors, on the
 * path the simulator's agents take — each agent an AfpClient (its own bearer key and simulated
 * IP) over `inProcessTransport` → Dispatcher (timers, routing, key hashing, the platform's rate
 * limiter, validation, placeBet, rendering) on a fresh platform under a VirtualClock.
 *
 * Setup, untimed: the agents register (POST /api/v1/auth/register), get the Enterprise tier as
 * the simulator gives a population's `tier` (out of band, right after the key is learned), and are
 * funded by a simulated Base deposit that confirms on the clock. Funding is sized so the Kelly
 * limit never binds at the minimum bet: the bankroll stays at or above KELLY_FLOOR_MICRO even if
 * an agent lost every stake it can place in a round.
 * Timed: sweeps; in a sweep every agent places one dice bet of the minimum amount, its answer
 * awaited before the next; the clock then moves one second (style B's service row refills one
 * token a second, so 1 bet per agent per virtual second is within its 60 per minute). The round
 * stops at `betsMax` bets or after `secondsMax` of wall time (checked per sweep).
 * Style A: POST /api/v1/games/dice; B: POST /casino-api/bet { game: 'dice' }; mixed: agents
 * alternate. Enterprise lifts the tier bucket; style B's own row (60/min, burst 100) and its daily
 * cap of 10,000 bets per game still apply, so B agents stay below both by construction.
 * Every refused bet is counted (`refused`, expected 0): a refusal would mean the limits bound.
 */
import { assert } from '../src/core/assert.ts';
import { AfpClient } from '../src/client/client.ts';
import { inProcessTransport } from '../src/client/in-process.ts';
import { VirtualClock } from '../src/core/clock.ts';
import { usdc, type Micro } from '../src/core/money.ts';
import { Rng } from '../src/core/rng.ts';
import { Dispatcher } from '../src/http/dispatcher.ts';
import { ALL_ROUTES } from '../src/http/routes/index.ts';
import { Platform } from '../src/platform/platform.ts';
import { DAILY_GAME_CAP_B } from '../src/services/casino/daily-game-cap.ts';
import { simulatedIp } from '../src/agent/simulated-ip.ts';
import { measureRound, PreviousRound, type RoundResult } from './measure.ts';

export type CasinoStyle = 'A' | 'B' | 'mixed';

export interface CasinoBenchOptions {
  readonly seed: string;
  readonly agents: number;
  /** Bets per round at most... */
  readonly betsMax: number;
  /** ...and no new sweep after this many seconds of wall time. */
  readonly secondsMax: number;
  readonly style: CasinoStyle;
}

export interface CasinoRound extends RoundResult {
  /** Bets answered with anything but 200 (expected 0). */
  readonly refused: number;
}

export const CASINO_START_MS = Date.parse('2026-01-01T00:00:00.000Z');
const SWEEP_MS = 1_000;
const BET_MICRO = 10_000n;
const BET_AMOUNT_A = 0.01;
const BET_AMOUNT_B = '0.01';
/** The tightest choice, dice under 10 (p = 0.09), allows 0.01 at risk factor 0.25 from a bankroll of 0.45: keep 1.00. */
const KELLY_FLOOR_MICRO = usdc(1);
const DEPOSIT_CONFIRM_WAIT_MS = 3_600_000;
/** The dice bets the population spreads over (each agent keeps one). */
const DICE_CHOICES = [
  { direction: 'over', threshold: 50 },
  { direction: 'under', threshold: 50 },
  { direction: 'over', threshold: 90 },
  { direction: 'under', threshold: 10 },
  { direction: 'over', threshold: 25 },
] as const;

interface Bettor {
  readonly agentId: string;
  readonly client: AfpClient;
  readonly style: 'A' | 'B';
  readonly body: Readonly<Record<string, unknown>>;
}

interface Population {
  readonly clock: VirtualClock;
  readonly bettors: readonly Bettor[];
}

const betsPerAgentMax = (options: CasinoBenchOptions): number => Math.ceil(options.betsMax / options.agents);

export function checkCasinoOptions(options: CasinoBenchOptions): string[] {
  const errors: string[] = [];
  if (options.style !== 'A' && betsPerAgentMax(options) >= DAILY_GAME_CAP_B) {
    errors.push(
      `--casino-bets / --casino-agents must stay below ${DAILY_GAME_CAP_B} bets per style-B agent (the daily cap per game)`,
    );
  }
  return errors;
}

/** A fresh platform with the population registered, on the Enterprise tier, and funded. */
async function population(options: CasinoBenchOptions): Promise<Population> {
  const clock = new VirtualClock(CASINO_START_MS);
  const platform = new Platform({ seed: options.seed, startMs: CASINO_START_MS });
  const transport = inProcessTransport({ dispatcher: new Dispatcher(platform, ALL_ROUTES), clock });
  const rng = new Rng(options.seed).fork('bench-casino');
  const fundMicro: Micro = KELLY_FLOOR_MICRO + BigInt(betsPerAgentMax(options)) * BET_MICRO;
  const bettors: Bettor[] = [];
  for (let index = 0; index < options.agents; index++) {
    const agentId = `dice-bettor-${String(index).padStart(5, '0')}`;
    const anonymous = new AfpClient(transport, { ip: simulatedIp(index) });
    const registered = await anonymous.casino.call('casino.A.register', { body: { agent_id: agentId } });
    assert(registered.ok && typeof registered.body['api_key'] === 'string', `bench agent ${agentId} registers`);
    const agent = platform.agents.get(agentId);
    assert(agent !== undefined, 'the registered agent exists');
    agent.tier = 'enterprise';
    const deposit = platform.casino.account.simulateDeposit(
      { agentId, chain: 'base', amountMicro: fundMicro },
      clock.nowMs(),
    );
    assert(deposit.ok, `the deposit of ${agentId} is accepted`);
    const style = options.style === 'mixed' ? (index % 2 === 0 ? 'A' : 'B') : options.style;
    bettors.push({
      agentId,
      client: anonymous.withKey(registered.body['api_key']),
      style,
      body: betBody(style, rng.pick(DICE_CHOICES), agentId),
    });
  }
  clock.set(clock.nowMs() + DEPOSIT_CONFIRM_WAIT_MS);
  platform.advanceTo(clock.nowMs());
  for (const bettor of bettors)
    assert(platform.casino.balanceMicro(bettor.agentId) >= fundMicro, 'deposits confirmed before the timed sweeps');
  return { clock, bettors };
}

function betBody(
  style: 'A' | 'B',
  choice: (typeof DICE_CHOICES)[number],
  agentId: string,
): Readonly<Record<string, unknown>> {
  return style === 'A'
    ? { direction: choice.direction, threshold: choice.threshold, amount: BET_AMOUNT_A, client_seed: agentId }
    : {
        game: 'dice',
        amount: BET_AMOUNT_B,
        params: { target: choice.threshold, over: choice.direction === 'over' },
        client_seed: agentId,
      };
}

const previous = new PreviousRound();

/** One timed round on a fresh population (the setup is not timed). */
export async function casinoRound(options: CasinoBenchOptions): Promise<CasinoRound> {
  const built = await population(options);
  const { clock, bettors } = built;
  const round = await measureRound(async () => {
    const deadlineNs = process.hrtime.bigint() + BigInt(options.secondsMax) * 1_000_000_000n;
    let sent = 0;
    let ok = 0;
    while (sent < options.betsMax && process.hrtime.bigint() < deadlineNs) {
      clock.set(clock.nowMs() + SWEEP_MS);
      for (let index = 0; index < bettors.length && sent < options.betsMax; index++) {
        const bettor = bettors[index] as Bettor;
        const answer =
          bettor.style === 'A'
            ? await bettor.client.casino.play('dice', bettor.body)
            : await bettor.client.casino.betB(bettor.body);
        sent++;
        if (answer.status === 200) ok++;
      }
    }
    return { ops: ok, requests: sent };
  });
  previous.replace(built);
  return { ...round, refused: round.requests - round.ops };
}
