/**
 * Archetype `property`: runs a list of actions drawn by fast-check from `afp check`'s command
 * table (src/check/property-actions.ts) against the platform it shares with every other population, through
 * its own client, each action predicted by `afp check`'s reference model and compared with the
 * answer. A difference is reported (`agent-assertions`), like any broken rule an agent observes.
 *
 * World: the agent's model is a small check run of its own — up to SLOT_COUNT registered agents
 * named `<agent id>-a<slot>` (so its names, domains and escrows are its own), keyless requests from
 * never-used IPs of its own, faucet grants as its only money. What others share with it is left out
 * of the model as on a shared live server: the faucet pool's balance is never asserted, and casino
 * deposits (a door the simulator does not lend an agent) are off; the tournament rows too where
 * the run has tournament players (they enter any open tournament, the agent's too). Wallet rows
 * run in the simulator, which lends its mint door (PlatformFacts.walletMint) and mints no
 * starting funds at the agent's wallets; the chains' fee accounts, shared, are not asserted.
 * Outages: the run's fault windows and casino game closures are the model's faults (a request in
 * one is answered by the outage and changes nothing), as afp check reads them from an afp serve.
 * Time: the virtual clock is exact during a wake, and the agent's model time is the clock's. An
 * advance-time action cannot move a clock other agents share: the agent sleeps until the instant
 * the action moves to, and the action resumes there (its moveClock resolves on that wake).
 * Every other action runs at once; an agent's whole list runs in as many wakes as it has time moves.
 * Prelude: three registrations before the actions — a0, a1 referred by a0, a2 referred by a1 — so
 * the actions meet registered agents and a two-level referral chain (the referral rules' levels).
 * Limits: max_actions (at most PROPERTY_ACTIONS_MAX) actions after the prelude.
 */
import {
  createModel,
  modelFaults,
  type CheckCapabilities,
  type CheckModel,
  type RunNames,
} from '../../src/check/check-model.ts';
import { ModelCommand, type CheckSystem } from '../../src/check/model-command.ts';
import { CheckMismatch } from '../../src/check/check-mismatch.ts';
import { LOOSE_TIME_TOLERANCE_MS } from '../../src/check/check-target.ts';
import { registerCommand } from '../../src/check/faucet/command-faucet.ts';
import { advanceModel } from '../../src/check/model-time.ts';
import { defineAgent, type AgentContext, type StepResult } from '../../src/agent/agent.ts';
import { memoryOf } from '../../src/agent/agent-kit.ts';
import {
  actionCommand,
  agentActions,
  propertyParams,
  servicesOf,
  type PropertyParams,
} from '../../src/check/property-actions.ts';

type Context = AgentContext<PropertyParams>;

/** Where a running action stands: finished, or waiting for the clock to reach `toMs`. */
type Progress = { readonly kind: 'done' } | { readonly kind: 'sleep'; readonly toMs: number };

interface PropertyMemory {
  readonly model: CheckModel;
  readonly system: CheckSystem;
  /** The prelude's registrations, then the drawn actions. */
  readonly commands: readonly ModelCommand[];
  next: number;
  /** The action paused in a clock move: resolves its moveClock and runs it to its next stop. */
  resume: (() => Promise<Progress>) | null;
  /** Set by moveClock while an action runs. */
  sleep: { toMs: number; wake: () => void } | null;
  /** Told when moveClock is called: the action now waits for its wake. */
  onSleep: (() => void) | null;
}

/** Fresh keyless IPs per agent: fdaf:<index>:<counter>::1, apart from the simulator's 2001:db8:: agents. */
const IP_COUNTER_MAX = 0xffff;

function runNamesOf(context: Context): RunNames {
  const indexHex = (Number(/-(\d+)-[0-9a-f]+$/.exec(context.agentId)?.[1] ?? 0) >>> 0).toString(16).padStart(8, '0');
  let counter = 0;
  return {
    agentId: (slot) => `${context.agentId}-a${slot}`,
    freshIp: () => {
      counter += 1;
      if (counter > IP_COUNTER_MAX) throw new Error(`a property agent uses at most ${IP_COUNTER_MAX} fresh IPs`);
      return `fdaf:${indexHex.slice(0, 4)}:${indexHex.slice(4)}:${counter.toString(16)}::1`;
    },
  };
}

/** Archetypes that enter tournaments they did not create: the run's tournaments are not the agent's alone. */
const TOURNAMENT_ENTRANTS: ReadonlySet<string> = new Set(['tournament-player']);

/**
 * In the simulator (platform facts lent): exact time, time moves by sleeping, trading priced from
 * the platform's seed. Driving a deployment (afp load: no facts), as `afp check` against a
 * wall-clock target: time within a tolerance, no time moves, no trading.
 */
function capabilitiesOf(context: Context): CheckCapabilities {
  const simulated = context.platformFacts !== undefined;
  return {
    styleA: true,
    exactTime: simulated,
    advance: simulated,
    pool: false,
    casino: true,
    deposits: false,
    domains: true,
    trading: simulated,
    wallet: simulated,
    tournaments: !(context.platformFacts?.archetypes ?? []).some((name) => TOURNAMENT_ENTRANTS.has(name)),
  };
}

function createMemory(context: Context): PropertyMemory {
  const facts = context.platformFacts;
  const services = servicesOf(context.params);
  const model = createModel({
    nowMs: context.clock.nowMs(),
    capabilities: capabilitiesOf(context),
    names: runNamesOf(context),
    timeToleranceMs: facts === undefined ? LOOSE_TIME_TOLERANCE_MS : 0,
    ...(facts === undefined
      ? {}
      : {
          config: facts.config,
          faults: modelFaults(facts.outages),
          marketClosures: facts.marketClosures,
          tradingPrices: { seed: facts.seed, shocks: facts.tradingShocks },
        }),
  });
  const memory: PropertyMemory = {
    model,
    system: {
      get client() {
        return context.client;
      },
      nowMs: () => context.clock.nowMs(),
      ...(facts === undefined ? {} : { walletMint: facts.walletMint }),
      moveClock: (toMs) =>
        new Promise<void>((wake) => {
          memory.sleep = { toMs, wake };
          memory.onSleep?.();
        }),
    },
    commands: [
      new ModelCommand(registerCommand({ style: context.style, again: null, referrer: null })),
      new ModelCommand(registerCommand({ style: 'B', again: null, referrer: { slot: 0, via: 'id' } })),
      new ModelCommand(registerCommand({ style: 'B', again: null, referrer: { slot: 1, via: 'id' } })),
      ...agentActions(context.params, context.rng).map((action) => new ModelCommand(actionCommand(services, action))),
    ],
    next: 0,
    resume: null,
    sleep: null,
    onSleep: null,
  };
  return memory;
}

function memory(context: Context): PropertyMemory {
  return memoryOf(context, () => createMemory(context));
}

/** Runs `running` until it finishes or asks to sleep; a difference from the model is reported. */
async function drive(context: Context, state: PropertyMemory, running: Promise<void>): Promise<Progress> {
  // The action may already have asked (moveClock is often its first call): then it sleeps at once.
  const slept = new Promise<Progress>((resolve) => {
    state.onSleep = () => {
      if (state.sleep !== null) resolve({ kind: 'sleep', toMs: state.sleep.toMs });
    };
    state.onSleep();
  });
  const finished = running.then(
    (): Progress => ({ kind: 'done' }),
    (error: unknown): Progress => {
      if (!(error instanceof CheckMismatch)) throw error;
      context.report(`the platform differs from the model of afp check: ${error.message}`, { action: state.next });
      return { kind: 'done' };
    },
  );
  const progress = await Promise.race([finished, slept]);
  state.onSleep = null;
  if (progress.kind === 'sleep')
    state.resume = () => {
      const sleep = state.sleep;
      state.sleep = null;
      sleep?.wake();
      return drive(
        context,
        state,
        finished.then(() => undefined),
      );
    };
  return progress;
}

async function runActions(context: Context, state: PropertyMemory): Promise<StepResult> {
  if (state.resume !== null) {
    const resume = state.resume;
    state.resume = null;
    const progress = await resume();
    if (progress.kind === 'sleep') return { wakeInMs: Math.max(1, progress.toMs - context.clock.nowMs()) };
    state.next++;
  }
  // Woken later than the model's time (the first wake): the model's timers catch up.
  if (context.clock.nowMs() > state.model.nowMs) advanceModel(state.model, context.clock.nowMs());
  while (state.next < state.commands.length) {
    const command = state.commands[state.next] as ModelCommand;
    if (!command.check(state.model)) {
      state.next++;
      continue;
    }
    const progress = await drive(context, state, command.run(state.model, state.system));
    if (progress.kind === 'sleep') return { wakeInMs: Math.max(1, progress.toMs - context.clock.nowMs()) };
    state.next++;
  }
  return 'done';
}

export const propertyAgent = defineAgent<PropertyParams>({
  name: 'property',
  description: "runs actions drawn by fast-check from afp check's command table, each predicted by its reference model",
  params: propertyParams,
  fundsOwnWallets: true,
  setup(context) {
    memory(context);
    return Promise.resolve();
  },
  async step(context) {
    return await runActions(context, memory(context));
  },
});
