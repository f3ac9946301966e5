/**
 * Casino account commands of `afp check`: withdraw (amounts around the minimum, the whole balance
 * less the fee and one micro more, above the 1,000 review threshold; a bad address; another
 * chain), the withdrawal list (statuses move on the clock), the balance view with pending
 * amounts, and — in-process only — a simulated chain deposit, the one way a run gets more money
 * than the faucet gives (a live target takes deposits only from a chain).
 */
import { toNumber } from '../core/money.ts';
import type { CheckModel } from './check-model.ts';
import { GOOD_ADDRESS, predictCasinoBalance, predictDeposit, predictWithdraw, predictWithdrawals, REVIEW_ABOVE_MICRO, WITHDRAW_FEE_MICRO } from './model-casino-account.ts';
import { casinoMismatch } from './model-casino-expect.ts';
import { expectAnswer, keyed, type CommandSpec } from './model-command.ts';
import { SCOPES } from './model-limits.ts';

const ready = (model: Readonly<CheckModel>, slot: number): boolean => model.capabilities.casino && model.agents[slot] !== undefined;

export type WithdrawKind = 'below-min' | 'min' | 'all' | 'all+1' | 'review' | 'bad-address' | 'ethereum';

function withdrawAmount(model: Readonly<CheckModel>, slot: number, kind: WithdrawKind): bigint {
  const balanceMicro = model.agents[slot]?.balanceMicro ?? 0n;
  const all = balanceMicro - WITHDRAW_FEE_MICRO;
  const byKind: Record<WithdrawKind, bigint> = {
    'below-min': 990_000n, min: 1_000_000n, all: all > 0n ? all : 1_000_000n, 'all+1': (all > 0n ? all : 0n) + 1n,
    review: REVIEW_ABOVE_MICRO + 1n, 'bad-address': 1_000_000n, ethereum: 1_000_000n,
  };
  return byKind[kind];
}

export function withdrawCommand(slot: number, kind: WithdrawKind): CommandSpec {
  const label = `withdraw(a${slot}, ${kind})`;
  return {
    label,
    applicable: (model) => ready(model, slot),
    charges: () => [{ slot, scopes: SCOPES.styleA }],
    parties: () => [slot],
    execute: async (model, system) => {
      const amountMicro = withdrawAmount(model, slot, kind);
      const address = kind === 'bad-address' ? '0x1234' : GOOD_ADDRESS;
      const chain = kind === 'ethereum' ? 'ethereum' : null;
      const prediction = predictWithdraw(model, { slot, amountMicro, address, chain });
      const body = { amount: toNumber(amountMicro), address, ...(chain === null ? {} : { chain }) };
      expectAnswer(`${label} (amount ${toNumber(amountMicro)})`, model, await keyed(model, system, slot).casino.call('casino.A.withdraw', { body }), prediction);
    },
  };
}

export function withdrawalsCommand(slot: number): CommandSpec {
  const label = `withdrawals(a${slot})`;
  return {
    label,
    applicable: (model) => ready(model, slot),
    charges: () => [{ slot, scopes: SCOPES.styleA }],
    parties: () => [slot],
    execute: async (model, system) => {
      const prediction = predictWithdrawals(model, slot);
      expectAnswer(label, model, await keyed(model, system, slot).casino.call('casino.A.withdrawals', {}), prediction);
    },
  };
}

export function casinoBalanceCommand(slot: number): CommandSpec {
  const label = `casinoBalance(a${slot})`;
  return {
    label,
    applicable: (model) => ready(model, slot),
    charges: () => [{ slot, scopes: SCOPES.styleA }],
    parties: () => [slot],
    execute: async (model, system) => {
      const prediction = predictCasinoBalance(model, slot);
      expectAnswer(label, model, await keyed(model, system, slot).casino.balance(), prediction);
    },
  };
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
      if (agent === undefined || system.deposit === undefined) throw new Error(`${label}: precondition broken, no agent or no deposit door`);
      const prediction = predictDeposit(model, slot, amountMicro);
      const answer = await system.deposit(agent.id, amountMicro);
      if (answer.status !== prediction.status || answer.confirmAtMs !== prediction.confirmAtMs) {
        casinoMismatch(label, model, [`expected a pending deposit credited at ${new Date(prediction.confirmAtMs).toISOString()}, got ${answer.status} at ${answer.confirmAtMs === null ? 'no instant' : new Date(answer.confirmAtMs).toISOString()}`]);
      }
      prediction.commit();
    },
  };
}
