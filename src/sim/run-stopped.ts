/**
 * Why a run stops early, and the signal that unwinds an agent's step when it does.
 *
 * `RunStopped` is thrown by the simulator's transport into the agent that sends a request after
 * the run was stopped (the first invariant violation, or a limit): the agent's step rejects and
 * the runner ends the run cleanly. It is not an error of the agent; agents must not catch it.
 * `SimulationCrash` wraps anything else an agent or the platform throws (a bug), with the agent
 * and instant it happened at, so the CLI can print them with the seed.
 */

export type StopReason = { readonly kind: 'invariant' } | { readonly kind: 'limit'; readonly message: string };

export class RunStopped extends Error {
  override readonly name = 'RunStopped';
}

export class SimulationCrash extends Error {
  override readonly name = 'SimulationCrash';
  readonly atMs: number;
  readonly agentId: string | null;

  constructor(options: { atMs: number; agentId: string | null; cause: unknown }) {
    const cause = options.cause;
    const text = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
    super(
      `${options.agentId === null ? 'platform' : `agent ${options.agentId}`} at ${new Date(options.atMs).toISOString()}: ${text}`,
      { cause },
    );
    this.atMs = options.atMs;
    this.agentId = options.agentId;
  }
}
