/**
 * AgentTurn: how a live run (`afp load`'s pool, a k6 VU) steps one agent. An iteration is the
 * agent's `setup` the first time, then one `step`, until a step answers 'done'; the `wakeInMs` a
 * step returns is ignored (the arrival schedule decides when the agent acts next; its own timed
 * moves still follow its clock, so an iteration may send nothing when nothing is due).
 *
 * One iteration at a time per agent (`busy`). Set-up calls the harness makes for the agent out of
 * band (a tier, a starting deposit through an afp serve's admin doors) are `pendingSetup`: awaited
 * before the agent's next request and before its iteration ends.
 */
import type { RunAgent } from './run-agent.ts';

export class AgentTurn {
  readonly agent: RunAgent;
  busy = false;
  setUp = false;
  done = false;
  pendingSetup: Promise<void> | null = null;
  private intendedStartMs: number | null = null;

  constructor(agent: RunAgent) {
    this.agent = agent;
  }

  /** The iteration starting now was meant to start at `intendedStartMs`: its first request is timed from there. */
  beginIteration(intendedStartMs: number): void {
    this.intendedStartMs = intendedStartMs;
  }

  /** The intended start, handed out once (to the iteration's first request); null afterwards. */
  takeIntendedStartMs(): number | null {
    const intended = this.intendedStartMs;
    this.intendedStartMs = null;
    return intended;
  }

  /** Runs one iteration; true when the agent saw no broken rule in it. Rejects when its transport did. */
  async iterate(): Promise<boolean> {
    const { agent } = this;
    const reportsBefore = agent.reports;
    if (!this.setUp) {
      this.setUp = true;
      await agent.definition.setup(agent);
    } else if ((await agent.definition.step(agent)) === 'done') {
      this.done = true;
    }
    if (this.pendingSetup !== null) await this.pendingSetup;
    return agent.reports === reportsBefore;
  }
}
