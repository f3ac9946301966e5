/**
 * InvariantMonitor: runs the enabled checkers at every hook, counts each hook call as one check,
 * keeps each checker's first violation and the run's first violation overall (the one the runner
 * stops at and the CLI prints). Agents' own observations (`context.report`: a 2xx to bad input)
 * are recorded under the pseudo-invariant `agent-assertions`, which is always on.
 *
 * Hot path: per hook, a precomputed list of the checkers that implement it (no lookups per call).
 */
import type { Transfer } from '../../core/ledger.ts';
import type { InvariantResult } from '../../report/run-record.ts';
import type { DomainEvent } from '../../services/shared/events.ts';
import type { InvariantName } from '../../scenario/scenario.ts';
import type { CheckerContext, Exchange, InvariantChecker, Violation } from './checker.ts';
import { INVARIANTS } from './index.ts';

export const AGENT_ASSERTIONS = 'agent-assertions';

export interface FirstFailure {
  readonly invariant: string;
  readonly violation: Violation;
}

class Tally {
  readonly name: string;
  checks = 0;
  violations = 0;
  first: Violation | null = null;

  constructor(name: string) {
    this.name = name;
  }
}

type Hook = 'onEvent' | 'onTransfer' | 'onExchange' | 'onTick' | 'onHour' | 'atEnd';
type Bound<A> = { readonly tally: Tally; readonly run: (argument: A) => Violation | null };

export class InvariantMonitor {
  private readonly tallies: Tally[] = [];
  private readonly agentTally = new Tally(AGENT_ASSERTIONS);
  private readonly hooks: { [H in Hook]: Bound<never>[] } = {
    onEvent: [],
    onTransfer: [],
    onExchange: [],
    onTick: [],
    onHour: [],
    atEnd: [],
  };
  private firstFailure: FirstFailure | null = null;

  constructor(names: readonly InvariantName[], context: CheckerContext) {
    for (const name of names) {
      const checker: InvariantChecker = INVARIANTS[name].create(context);
      const tally = new Tally(name);
      this.tallies.push(tally);
      for (const hook of Object.keys(this.hooks) as Hook[]) {
        const method = checker[hook] as ((argument: never) => Violation | null) | undefined;
        if (method !== undefined) this.hooks[hook].push({ tally, run: method.bind(checker) });
      }
    }
  }

  get failure(): FirstFailure | null {
    return this.firstFailure;
  }

  onEvent(event: DomainEvent): void {
    this.runHook(this.hooks.onEvent as Bound<DomainEvent>[], event);
  }

  onTransfer(transfer: Transfer): void {
    this.runHook(this.hooks.onTransfer as Bound<Transfer>[], transfer);
  }

  onExchange(exchange: Exchange): void {
    this.runHook(this.hooks.onExchange as Bound<Exchange>[], exchange);
  }

  onTick(nowMs: number): void {
    this.runHook(this.hooks.onTick as Bound<number>[], nowMs);
  }

  onHour(nowMs: number): void {
    this.runHook(this.hooks.onHour as Bound<number>[], nowMs);
  }

  atEnd(endMs: number): void {
    this.runHook(this.hooks.atEnd as Bound<number>[], endMs);
  }

  /** An agent saw the platform break a rule it can observe. */
  report(violation: Violation): void {
    this.record(this.agentTally, violation);
  }

  /** One agent wake-up whose answers the agent judged (the `checks` of agent-assertions). */
  agentWakeJudged(): void {
    this.agentTally.checks++;
  }

  results(): InvariantResult[] {
    return [...this.tallies, this.agentTally].map((tally) => ({
      name: tally.name,
      checks: tally.checks,
      violations: tally.violations,
      first: tally.first,
    }));
  }

  private runHook<A>(bound: readonly Bound<A>[], argument: A): void {
    for (const { tally, run } of bound) {
      tally.checks++;
      const violation = run(argument);
      if (violation !== null) this.record(tally, violation);
    }
  }

  private record(tally: Tally, violation: Violation): void {
    tally.violations++;
    tally.first ??= violation;
    this.firstFailure ??= { invariant: tally.name, violation };
  }
}
