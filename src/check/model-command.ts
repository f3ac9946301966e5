/**
 * The frame every check command runs in: fast-check's AsyncCommand over (CheckModel, CheckSystem).
 * A command is a small spec — its label, when it applies, which keyed requests it sends (for the
 * rate budget), and `execute`, which predicts, sends and compares; this frame adds what all share:
 * the precondition on the rate budget, keeping an estimated model time in step with a wall-clock
 * target, and after every command the balances of the registered agents, read back through
 * GET /api/v1/agents/:id (or GET /status where the target has no style-A mounts).
 *
 * Invariant: `check` never changes the model; `run` throws CheckMismatch on the first difference,
 * naming the command, the model's time and every differing field.
 */
import type { AsyncCommand } from 'fast-check';
import type { AfpClient, ApiResult } from '../client/client.ts';
import { CheckMismatch } from './check-mismatch.ts';
import { registeredSlots, SLOT_COUNT, type CheckModel } from './check-model.ts';
import { compareAnswer, failure, money, type Prediction } from './expectation.ts';
import { SCOPES, type Charge } from './model-limits.ts';
import { advanceModel } from './model-time.ts';
import type { WalletChain } from '../services/wallet/keys/wallet-keys.ts';

/** The system under test as the commands see it. */
export interface CheckSystem {
  /** A client without key or IP; commands derive identities with withKey / withIp. */
  readonly client: AfpClient;
  /** The target's time now: exact (virtual or manual clock) or estimated (wall clock). */
  nowMs(): number;
  /** Moves the target's clock forward to exactly `toMs`; rejects when the target refuses. */
  moveClock(toMs: number): Promise<void>;
  /** In-process only: a simulated Base chain deposit to the agent (what the casino answered). */
  deposit?(agentId: string, amountMicro: bigint): Promise<{ status: string; confirmAtMs: number | null }>;
  /** The wallet's funding door (POST /_afp/wallet/mint on afp serve; the same mint in-process): its answer. */
  walletMint?(body: {
    chain: string;
    address: string;
    amount: string;
    token?: string;
  }): Promise<{ status: number; body: unknown }>;
  /** Told of each keyless 429 accepted unjudged (keylessPrediction): a live target counts them for its closing note. */
  sharedLimited?(): void;
  /** In-process only: what the chain's fee account holds, in base units of its native coin. */
  walletFeeAccount?(chain: WalletChain): bigint;
}

/** Differences listed in one failure message (a list answer can differ in hundreds of fields). */
const PROBLEMS_SHOWN_MAX = 8;

export interface CommandSpec {
  readonly label: string;
  applicable(model: Readonly<CheckModel>): boolean;
  /** Requests this command sends with agents' keys (the balance read-back is added by the frame). */
  charges(model: Readonly<CheckModel>): Charge[];
  /** Slots whose balances change or must not change; read back when the target lacks style A. */
  parties(model: Readonly<CheckModel>): number[];
  execute(model: CheckModel, system: CheckSystem): Promise<void>;
}

export class ModelCommand implements AsyncCommand<CheckModel, CheckSystem> {
  readonly spec: CommandSpec;

  constructor(spec: CommandSpec) {
    this.spec = spec;
  }

  check(model: Readonly<CheckModel>): boolean {
    return this.spec.applicable(model) && model.budget.canTake(this.allCharges(model));
  }

  async run(model: CheckModel, system: CheckSystem): Promise<void> {
    model.commandsRun += 1;
    if (!model.capabilities.exactTime) advanceModel(model, Math.max(model.nowMs, system.nowMs()));
    const charges = this.allCharges(model);
    await this.spec.execute(model, system);
    model.budget.take(charges);
    await verifyBalances(this.spec, model, system);
  }

  toString(): string {
    return this.spec.label;
  }

  private allCharges(model: Readonly<CheckModel>): Charge[] {
    const scopes = model.capabilities.styleA ? SCOPES.styleA : SCOPES.faucetB;
    // Every slot may be registered by the time the read-back runs: charge them all (conservative).
    const readBack = balanceSlots(
      this.spec,
      model,
      Array.from({ length: SLOT_COUNT }, (_, slot) => slot),
    ).map((slot) => ({ slot, scopes }));
    return [...this.spec.charges(model), ...readBack];
  }
}

function balanceSlots(spec: CommandSpec, model: Readonly<CheckModel>, candidates: readonly number[]): number[] {
  if (model.capabilities.styleA) return [...candidates];
  const parties = spec.parties(model);
  return candidates.filter((slot) => parties.includes(slot));
}

/** Reads back the balance of every registered agent (or of the parties) and compares it with the model. */
async function verifyBalances(spec: CommandSpec, model: CheckModel, system: CheckSystem): Promise<void> {
  for (const slot of balanceSlots(spec, model, registeredSlots(model))) {
    const agent = model.agents[slot];
    if (agent === undefined) continue;
    const client = system.client.withKey(agent.apiKey);
    const styleA = model.capabilities.styleA;
    const answer = styleA ? await client.faucetA.agent(agent.id) : await client.faucetB.status();
    const expected: Prediction = {
      expected: {
        status: 200,
        body: styleA ? { balance_usdc: money('A', agent.balanceMicro) } : { balance: money('B', agent.balanceMicro) },
      },
    };
    expectAnswer(`${spec.label}, then the balance of a${slot} (${agent.id})`, model, answer, expected);
  }
}

/**
 * Compares an answer with its prediction; on success of both, applies the prediction's commit.
 * An answer with the status of one of the target's fault windows, inside that window (within the
 * time tolerance), is the fault the target was told to answer, not a mismatch: the model does not
 * know which service each command reaches, and the request changed nothing, so nothing is committed.
 */
export function expectAnswer(
  label: string,
  model: Readonly<CheckModel>,
  answer: ApiResult<unknown> | { status: number; body: unknown },
  prediction: Prediction,
): void {
  if (inFaultWindow(model, answer)) return;
  const problems = compareAnswer(answer, prediction.expected, model.timeToleranceMs);
  if (problems.length > 0) {
    const shown =
      problems.length > PROBLEMS_SHOWN_MAX
        ? [...problems.slice(0, PROBLEMS_SHOWN_MAX), `… and ${problems.length - PROBLEMS_SHOWN_MAX} more`]
        : problems;
    throw new CheckMismatch(`${label} at ${new Date(model.nowMs).toISOString()}: ${shown.join('; ')}`);
  }
  if (answer.status >= 200 && answer.status < 300)
    prediction.commit?.(answer.body as Readonly<Record<string, unknown>>);
}

/** Whether `answer` is one of the target's fault windows answering now (within the time tolerance): the request changed nothing. */
export function inFaultWindow(model: Readonly<CheckModel>, answer: { status: number; body: unknown }): boolean {
  const nowMs = model.nowMs;
  const tolerance = model.timeToleranceMs;
  const code = (answer.body as { code?: unknown } | null)?.code;
  return model.faults.some(
    (fault) =>
      fault.status === answer.status &&
      (fault.code === undefined || fault.code === code) &&
      nowMs >= fault.fromMs - tolerance &&
      nowMs < fault.untilMs + tolerance,
  );
}

/** A client carrying the key of the agent in `slot` (a precondition guarantees it is registered). */
/** The target has the casino and the slot's agent is registered. */
export function casinoAgentReady(model: Readonly<CheckModel>, slot: number): boolean {
  return model.capabilities.casino && model.agents[slot] !== undefined;
}

/** What one agent's exchange gives back: the answer and what the model predicted before it was sent. */
export interface AgentExchange {
  readonly answer: ApiResult<unknown>;
  readonly prediction: Prediction;
  /** Appended to the label in a mismatch (values drawn at execution, such as an amount). */
  readonly detail?: string;
}

/**
 * A command one agent sends on style A, with only that agent's balance at stake. `exchange`
 * predicts from the model and then sends through the agent's keyed client, in that order (the
 * prediction reads the state the request meets).
 */
export function agentStyleACommand(
  slot: number,
  label: string,
  applicable: (model: Readonly<CheckModel>) => boolean,
  exchange: (model: CheckModel, client: AfpClient) => Promise<AgentExchange>,
): CommandSpec {
  return soloStyleACommand(slot, label, applicable, async (model, system) => {
    const { answer, prediction, detail } = await exchange(model, keyed(model, system, slot));
    expectAnswer(detail === undefined ? label : `${label} ${detail}`, model, answer, prediction);
  });
}

/** A command that spends one agent's style-A budget and may move that agent's balance only. */
export function soloStyleACommand(
  slot: number,
  label: string,
  applicable: (model: Readonly<CheckModel>) => boolean,
  execute: CommandSpec['execute'],
): CommandSpec {
  return { label, applicable, charges: () => [{ slot, scopes: SCOPES.styleA }], parties: () => [slot], execute };
}

export function keyed(model: Readonly<CheckModel>, system: CheckSystem, slot: number): AfpClient {
  const agent = model.agents[slot];
  if (agent === undefined) throw new Error(`command precondition broken: a${slot} is not registered`);
  return system.client.withKey(agent.apiKey);
}

/**
 * What a keyless request's answer is judged by: its prediction, or the platform's 429 RATE_LIMIT
 * (no change to the model) when the answer is a 429 the check cannot judge — the target does not
 * count the request's fresh address (capabilities.freshIps false), so its per-IP budget is shared
 * with what the model cannot see (earlier runs and invocations, other clients of this host).
 */
export function keylessPrediction(
  model: Readonly<CheckModel>,
  system: CheckSystem,
  answer: { readonly status: number },
  prediction: Prediction,
): Prediction {
  if (model.capabilities.freshIps !== false || answer.status !== 429) return prediction;
  system.sharedLimited?.();
  return failure(429, 'RATE_LIMIT');
}

/** A client without key, from a never-used IP (per-IP limits never bind, docs/decisions/check.md). */
export function keyless(model: Readonly<CheckModel>, system: CheckSystem): AfpClient {
  return system.client.withIp(model.names.freshIp());
}
