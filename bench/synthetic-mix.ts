/**
 * A synthetic traffic mix, made by the benchmark itself through AfpClient on an in-process
 * platform: agents register (half style A, half B, each from its own simulated IP), claim, then
 * wake every 10 min to 2 h of virtual time to create escrows to other agents, release or refund
 * them, or read (status, detail, list). It stands in for the quickstart scenario when the agent
 * archetypes are not available (`--mix synthetic`), and keeps the harness testable on its own.
 *
 * Determinism: every choice comes from one seeded Rng; wake-ups run in (time, sequence) order
 * from a Scheduler; the same seed gives the same mix. Non-goals: realism beyond a plausible
 * blend of writes and reads; checking answers (the simulator's invariants do that).
 */
import { AfpClient } from '../src/client/client.ts';
import { inProcessTransport } from '../src/client/in-process.ts';
import { VirtualClock } from '../src/core/clock.ts';
import { Rng } from '../src/core/rng.ts';
import { Scheduler } from '../src/core/scheduler.ts';
import { Dispatcher } from '../src/http/dispatcher.ts';
import { ALL_ROUTES } from '../src/http/routes/index.ts';
import { simulatedIp } from '../src/agent/simulated-ip.ts';
import { MixRecorder } from './mix-recorder.ts';
import { freshPlatform, type TrafficMix } from './traffic-mix.ts';

export const SYNTHETIC_START_MS = Date.parse('2025-01-01T00:00:00.000Z');
const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

interface SyntheticAgent {
  readonly agentId: string;
  readonly style: 'A' | 'B';
  client: AfpClient;
  readonly locked: string[];
  nextClaimMs: number;
}

export interface SyntheticOptions {
  readonly seed: string;
  readonly agents: number;
  readonly durationMs: number;
  readonly bodiesKept: number;
}

export const SYNTHETIC_FULL = { agents: 2_000, durationMs: 7 * DAY_MS } as const;
export const SYNTHETIC_SMALL = { agents: 100, durationMs: DAY_MS } as const;

export async function syntheticMix(options: SyntheticOptions): Promise<TrafficMix> {
  const base: Omit<TrafficMix, 'exchanges'> = {
    name: 'synthetic',
    seed: options.seed,
    startMs: SYNTHETIC_START_MS,
    durationMs: options.durationMs,
    agents: options.agents,
    faults: [],
  };
  const clock = new VirtualClock(base.startMs);
  const dispatcher = new Dispatcher(freshPlatform({ ...base, exchanges: [] }), ALL_ROUTES);
  const transport = inProcessTransport({ dispatcher, clock });
  const recorder = new MixRecorder({ bodiesKept: options.bodiesKept });
  const rng = new Rng(options.seed).fork('bench-synthetic');
  const agents: SyntheticAgent[] = [];
  const registered: SyntheticAgent[] = [];
  const wakes = new Scheduler<SyntheticAgent>({ maxPending: options.agents + 1 });
  for (let index = 0; index < options.agents; index++) {
    const agentId = `bench-agent-${String(index).padStart(5, '0')}`;
    const client = new AfpClient(
      recorder.recording(transport, agentId, () => clock.nowMs()),
      { ip: simulatedIp(index) },
    );
    const agent: SyntheticAgent = { agentId, style: index % 2 === 0 ? 'A' : 'B', client, locked: [], nextClaimMs: 0 };
    agents.push(agent);
    wakes.schedule(base.startMs + rng.int(HOUR_MS), agent);
  }
  const endMs = base.startMs + options.durationMs;
  for (let next = wakes.pop(); next !== undefined && next.atMs < endMs; next = wakes.pop()) {
    clock.set(next.atMs);
    const agent = next.payload;
    if (agent.client.apiKey === undefined) {
      if (await register(agent, registered.length > 0 ? rng.pick(registered) : null, rng)) registered.push(agent);
    } else {
      await step(agent, registered, rng, clock.nowMs());
    }
    wakes.schedule(next.atMs + rng.between(10 * MINUTE_MS, 2 * HOUR_MS), agent);
  }
  return { ...base, exchanges: recorder.finish(() => undefined) };
}

async function register(agent: SyntheticAgent, referrer: SyntheticAgent | null, rng: Rng): Promise<boolean> {
  const referral = referrer !== null && rng.chance(1, 4) ? { referrer: referrer.agentId } : {};
  const result =
    agent.style === 'A'
      ? await agent.client.faucetA.register({ agent_id: agent.agentId, ...referral })
      : await agent.client.faucetB.register({ agent_id: agent.agentId, ...referral });
  if (!result.ok) return false;
  agent.client = agent.client.withKey(result.body.api_key);
  if (agent.style === 'A') await agent.client.faucetA.claim();
  return true;
}

async function step(
  agent: SyntheticAgent,
  registered: readonly SyntheticAgent[],
  rng: Rng,
  nowMs: number,
): Promise<void> {
  const choice = rng.int(100);
  if (agent.style === 'B' && nowMs >= agent.nextClaimMs && choice < 15) {
    const claimed = await agent.client.faucetB.claim();
    agent.nextClaimMs = nowMs + (claimed.ok ? DAY_MS : HOUR_MS);
  } else if (choice < 45) {
    await createEscrow(agent, rng.pick(registered), rng);
  } else if (choice < 70 && agent.locked.length > 0) {
    await settleEscrow(agent, rng);
  } else if (choice < 80) {
    await (agent.style === 'A' ? agent.client.faucetA.status() : agent.client.faucetB.status());
  } else if (choice < 90 && agent.locked.length > 0) {
    const escrowId = rng.pick(agent.locked);
    await (agent.style === 'A' ? agent.client.escrowA.get(escrowId) : agent.client.escrowB.get(escrowId));
  } else {
    await (agent.style === 'A'
      ? agent.client.escrowA.list({ limit: 10 })
      : agent.client.escrowB.list({ role: 'sender', limit: 10 }));
  }
}

async function createEscrow(agent: SyntheticAgent, receiver: SyntheticAgent, rng: Rng): Promise<void> {
  if (receiver === agent) return;
  const cents = rng.between(10, 80);
  const result =
    agent.style === 'A'
      ? await agent.client.escrowA.create({
          buyer: agent.agentId,
          seller: receiver.agentId,
          amount: cents / 100,
          memo: 'bench',
        })
      : await agent.client.escrowB.create({
          amount: (cents / 100).toFixed(2),
          receiver: receiver.agentId,
          description: 'bench',
          expires_in: rng.between(1, 48) * 3600,
        });
  if (result.ok) agent.locked.push(result.body.escrow_id);
}

async function settleEscrow(agent: SyntheticAgent, rng: Rng): Promise<void> {
  const index = rng.int(agent.locked.length);
  const escrowId = agent.locked[index] as string;
  agent.locked.splice(index, 1);
  if (agent.style === 'A') await agent.client.escrowA.release({ escrow_id: escrowId });
  else if (rng.chance(1, 5)) await agent.client.escrowB.refund(escrowId);
  else await agent.client.escrowB.release(escrowId);
}
