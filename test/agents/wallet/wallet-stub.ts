// Test fixture: an AgentContext for one wallet archetype step, with a wallet client whose answers
// the test sets (anything else is a test error), a fixed clock and the reports collected. For the
// rules an archetype checks from answers a sound platform never gives (a transaction still
// pending after its block, an order moving back, a payout below its minimum).
import { Faker, en } from '@faker-js/faker';
import type { AfpClient } from '../../../src/client/client.ts';
import { VirtualClock } from '../../../src/core/clock.ts';
import { Rng } from '../../../src/core/rng.ts';
import type { AgentContext } from '../../../src/agent/agent.ts';
import { AgentDirectory } from '../../../src/agent/agent-directory.ts';

export type Answer =
  | { ok: true; status: number; headers: Record<string, string>; body: unknown }
  | { ok: false; status: number; headers: Record<string, string>; body: { error: string; code: string } };

export const ok = (body: unknown): Answer => ({ ok: true, status: 200, headers: {}, body });

export function stubContext<P>(params: P, nowMs: number, answers: Record<string, (...args: unknown[]) => Answer>) {
  const reports: { message: string; event: unknown }[] = [];
  const wallet = new Proxy(
    {},
    {
      get: (_target, name: string) => {
        const answer = answers[name];
        if (answer === undefined) throw new Error(`the stub has no answer for wallet.${name}`);
        return (...args: unknown[]) => Promise.resolve(answer(...args));
      },
    },
  );
  const context: AgentContext<P> = {
    agentId: 'stub-0',
    archetype: 'stub',
    client: { wallet } as unknown as AfpClient,
    clock: new VirtualClock(nowMs),
    rng: new Rng('wallet-stub'),
    faker: new Faker({ locale: [en] }),
    params,
    style: 'B',
    tier: 'free',
    directory: new AgentDirectory(),
    memory: null,
    setKey: () => undefined,
    report: (message, event) => reports.push({ message, event }),
    expectedOutage: () => false,
  };
  return { context, reports };
}
