/**
 * The casino account in the reference model: withdrawals (casino.md Limits 3, NOTES.md: USDC on
 * Base only, flat fee 0.50 added to the debit, minimum 1.00, a `0x` + 40 hex address, amounts over
 * 1,000 wait in `pending_review` and complete on the clock 24 h later — afp's review time,
 * docs/decisions/casino.md), the withdrawal list, the balance view with pending amounts, and simulated
 * chain deposits (in-process only: credited on Base after 60 confirmations of 2 s = 2 min).
 *
 * Precedence (docs/decisions/casino.md "Casino service"): chain → address → amount (400 each) → 422 when the
 * balance is below amount + fee. The fee and the amount leave the balance at request time.
 * The four numbers (fee, minimum, review threshold and time) are the documents' table as the
 * platform's configuration holds it (model.config.casino.withdraw); the rules are the model's own.
 */
import { requireAgent, type CheckModel } from '../check-model.ts';
import { eq, list, money, object, text, time, type Matcher, type Prediction } from '../expectation.ts';
import type { ModelWithdrawal } from './casino-state.ts';

/** Base: 60 confirmations × 2 s (docs/decisions/casino.md "Casino service", GET /auth/supported-chains). */
export const BASE_DEPOSIT_MS = 120_000;

export const GOOD_ADDRESS = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

export interface WithdrawInput {
  readonly slot: number;
  readonly amountMicro: bigint;
  readonly address: string;
  readonly chain: 'base' | 'ethereum' | null;
}

export function predictWithdraw(model: Readonly<CheckModel>, input: WithdrawInput): Prediction {
  const rules = model.config.casino.withdraw;
  if (
    input.amountMicro <= 0n ||
    (input.chain !== null && input.chain !== 'base') ||
    !/^0x[0-9a-fA-F]{40}$/.test(input.address) ||
    input.amountMicro < rules.minimumMicro
  ) {
    return { expected: { status: 400, code: 'BAD_REQUEST' } };
  }
  const agent = requireAgent(model, input.slot);
  const debitMicro = input.amountMicro + rules.feeMicro;
  if (agent.balanceMicro < debitMicro) return { expected: { status: 422, code: 'INSUFFICIENT_BALANCE' } };
  const review = input.amountMicro > rules.reviewAboveMicro;
  const draft: ModelWithdrawal = {
    id: '',
    slot: input.slot,
    address: input.address,
    amountMicro: input.amountMicro,
    createdAtMs: model.nowMs,
    reviewEndsAtMs: review ? model.nowMs + rules.reviewMs : null,
    completedAtMs: review ? null : model.nowMs,
  };
  return {
    expected: {
      status: 200,
      body: {
        ...withdrawalLine(draft, rules.feeMicro),
        withdrawal_id: text(),
        new_balance: money('A', agent.balanceMicro - debitMicro),
      },
    },
    commit: (answer) => {
      agent.balanceMicro -= debitMicro;
      (model as CheckModel).feeIncomeMicro += rules.feeMicro;
      (model as CheckModel).casino.withdrawals.push({ ...draft, id: String(answer['withdrawal_id']) });
    },
  };
}

function withdrawalLine(withdrawal: ModelWithdrawal, feeMicro: bigint): Record<string, Matcher> {
  const completed = withdrawal.completedAtMs !== null;
  return {
    withdrawal_id: eq(withdrawal.id),
    chain: eq('base'),
    address: eq(withdrawal.address),
    amount: money('A', withdrawal.amountMicro),
    fee: money('A', feeMicro),
    total_debited: money('A', withdrawal.amountMicro + feeMicro),
    status: eq(completed ? 'completed' : 'pending_review'),
    ...(completed ? { tx_hash: text() } : { tx_hash: eq(null) }),
    created_at: time(withdrawal.createdAtMs),
    review_ends_at: time(withdrawal.reviewEndsAtMs),
    completed_at: time(withdrawal.completedAtMs),
  };
}

/** GET /auth/withdrawals: newest first (the default page of 20). */
export function predictWithdrawals(model: Readonly<CheckModel>, slot: number): Prediction {
  const own = model.casino.withdrawals
    .filter((withdrawal) => withdrawal.slot === slot)
    .reverse()
    .slice(0, 20);
  return {
    expected: {
      status: 200,
      body: {
        withdrawals: list(
          own.map((withdrawal) => object(withdrawalLine(withdrawal, model.config.casino.withdraw.feeMicro))),
        ),
        count: eq(own.length),
      },
    },
  };
}

/** GET /auth/balance: the balance, deposits on their way, withdrawals under review. */
export function predictCasinoBalance(model: Readonly<CheckModel>, slot: number): Prediction {
  const agent = requireAgent(model, slot);
  const pendingDepositsMicro = model.casino.deposits
    .filter((deposit) => deposit.slot === slot && !deposit.credited)
    .reduce((sum, deposit) => sum + deposit.amountMicro, 0n);
  const inReviewMicro = model.casino.withdrawals
    .filter((withdrawal) => withdrawal.slot === slot && withdrawal.completedAtMs === null)
    .reduce((sum, withdrawal) => sum + withdrawal.amountMicro, 0n);
  return {
    expected: {
      status: 200,
      body: {
        agent_id: eq(agent.id),
        balance: money('A', agent.balanceMicro),
        currency: eq('USDC'),
        pending_deposits: money('A', pendingDepositsMicro),
        pending_withdrawals: money('A', inReviewMicro),
      },
    },
  };
}

/** A simulated Base deposit: pending now, credited at exactly now + 2 min. */
export function predictDeposit(
  model: Readonly<CheckModel>,
  slot: number,
  amountMicro: bigint,
): { status: 'pending'; confirmAtMs: number; commit: () => void } {
  const confirmAtMs = model.nowMs + BASE_DEPOSIT_MS;
  return {
    status: 'pending',
    confirmAtMs,
    commit: () => {
      (model as CheckModel).casino.deposits.push({ slot, amountMicro, creditAtMs: confirmAtMs, credited: false });
    },
  };
}
