/**
 * Casino account commands of `afp check`: withdraw (amounts around the minimum, the whole balance
 * less the fee and one micro more, above the 1,000 review threshold; a bad address; another
 * chain), the withdrawal list (statuses move on the clock), the balance view with pending
 * amounts, and — in-process only — a simulated chain deposit, the one way a run gets more money
 * than the faucet gives (a live target takes deposits only from a chain).
 */
import { toNumber } from '../../core/money.ts';
import type { CheckModel } from '../check-model.ts';
import {
  GOOD_ADDRESS,
  predictCasinoBalance,
  predictDeposit,
  predictWithdraw,
  predictWithdrawals,
} from './model-casino-account.ts';
import { casinoMismatch } from './model-casino-expect.ts';
import { agentStyleACommand, casinoAgentReady, type CommandSpec } from '../model-command.ts';

export type WithdrawKind = 'below-min' | 'min' | 'all' | 'all+1' | 'review' | 'bad-address' | 'ethereum';

function withdrawAmount(model: Readonly<CheckModel>, slot: number, kind: WithdrawKind): bigint {
  const balanceMicro = model.agents[slot]?.balanceMicro ?? 0n;
  const rules = model.config.casino.withdraw;
  const all = balanceMicro - rules.feeMicro;
  const byKind: Record<WithdrawKind, bigint> = {
    'below-min': 990_000n,
    min: 1_000_000n,
    all: all > 0n ? all : 1_000_000n,
    'all+1': (all > 0n ? all : 0n) + 1n,
    review: rules.reviewAboveMicro + 1n,
    'bad-address': 1_000_000n,
    ethereum: 1_000_000n,
  };
  return byKind[kind];
}

export function withdrawCommand(slot: number, kind: WithdrawKind): CommandSpec {
  return agentStyleACommand(
    slot,
    `withdraw(a${slot}, ${kind})`,
    (model) => casinoAgentReady(model, slot),
    async (model, client) => {
      const amountMicro = withdrawAmount(model, slot, kind);
      const address = kind === 'bad-address' ? '0x1234' : GOOD_ADDRESS;
      const chain = kind === 'ethereum' ? 'ethereum' : null;
      const prediction = predictWithdraw(model, { slot, amountMicro, address, chain });
      const body = { amount: toNumber(amountMicro), address, ...(chain === null ? {} : { chain }) };
      return {
        prediction,
        answer: await client.casino.call('casino.A.withdraw', { body }),
        detail: `(amount ${toNumber(amountMicro)})`,
      };
    },
  );
}

export function withdrawalsCommand(slot: number): CommandSpec {
  return agentStyleACommand(
    slot,
    `withdrawals(a${slot})`,
    (model) => casinoAgentReady(model, slot),
    async (model, client) => {
      const prediction = predictWithdrawals(model, slot);
      return { prediction, answer: await client.casino.call('casino.A.withdrawals', {}) };
    },
  );
}

export function casinoBalanceCommand(slot: number): CommandSpec {
  return agentStyleACommand(
    slot,
    `casinoBalance(a${slot})`,
    (model) => casinoAgentReady(model, slot),
    async (model, client) => {
      const prediction = predictCasinoBalance(model, slot);
      return { prediction, answer: await client.casino.balance() };
    },
  );
}

export function depositCommand(slot: number, amountMicro: bigint): CommandSpec {
  const label = `deposit(a${slot}, ${toNumber(amountMicro)} on base)`;
  return {
    label,
    applicable: (model) => model.capabilities.deposits && model.agents[slot] !== undefined,
    charges: () => [],
    parties: () => [slot],
    execute: async (model, system) => {
      const agent = model.agents[slot];
      if (agent === undefined || system.deposit === undefined)
        throw new Error(`${label}: precondition broken, no agent or no deposit door`);
      const prediction = predictDeposit(model, slot, amountMicro);
      const answer = await system.deposit(agent.id, amountMicro);
      if (answer.status !== prediction.status || answer.confirmAtMs !== prediction.confirmAtMs) {
        casinoMismatch(label, model, [
          `expected a pending deposit credited at ${new Date(prediction.confirmAtMs).toISOString()}, got ${answer.status} at ${answer.confirmAtMs === null ? 'no instant' : new Date(answer.confirmAtMs).toISOString()}`,
        ]);
      }
      prediction.commit();
    },
  };
}
