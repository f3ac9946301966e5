/**
 * FloatBalances: the casino balances as the deployment holds them, JS doubles (spec/DEPLOYED.md
 * §2.2: SQLite REAL, `101.49949999999998` is a real `balance_usd`), kept beside afp's exact ledger
 * for `afp serve --dialect deployed --float-money`, so that afp's live readers can be tried on the
 * money a real deployment writes.
 *
 * One shadow per agent: the double, and the exact balance (micro) it last stood for. A bet moves it
 * as the deployment's settlement does (§2.4): `balance - amount`, then `+ amount * multiplier` when
 * it pays, each a double operation on the wire's numbers. Every other movement afp made since (a
 * deposit, the faucet's credit, an escrow, a withdrawal) is caught up as one double addition of its
 * exact amount, the way the deployment adds a credit to a REAL. afp's ledger stays the authority:
 * the shadow only renders, and never differs from it by more than float noise and the sub-micro
 * part of `amount * multiplier` (afp credits the payout rounded down to the micro).
 * Limits: one entry per agent the platform holds (bounded by the platform's own agent limits).
 * Non-goals: trading, domains and wallet balances (their own services; exact here).
 */
import type { Micro } from '../../core/money.ts';
import { toNumber } from '../../core/money.ts';

interface Shadow {
  exactMicro: Micro;
  value: number;
}

/** What a bet's settlement needs: the wire's stake and multiplier, and afp's exact figures. */
export interface SettledBet {
  readonly agentId: string;
  readonly amountMicro: Micro;
  readonly payoutMicro: Micro;
  readonly balanceAfterMicro: Micro;
  /** The multiplier as the answer shows it (`payout_multiplier`). */
  readonly multiplier: number;
}

export class FloatBalances {
  private readonly shadows = new Map<string, Shadow>();

  /** The agent's balance as a double, after catching up every movement since it was last seen. */
  balance(agentId: string, exactMicro: Micro): number {
    return this.caughtUp(agentId, exactMicro).value;
  }

  /** Settles a bet on the double (stake off, `amount × multiplier` on) and returns the balance after it. */
  settle(bet: SettledBet): number {
    const before = bet.balanceAfterMicro + bet.amountMicro - bet.payoutMicro;
    const shadow = this.caughtUp(bet.agentId, before);
    const amount = toNumber(bet.amountMicro);
    shadow.value = shadow.value - amount;
    if (bet.payoutMicro > 0n) shadow.value = shadow.value + amount * bet.multiplier;
    shadow.exactMicro = bet.balanceAfterMicro;
    return shadow.value;
  }

  private caughtUp(agentId: string, exactMicro: Micro): Shadow {
    let shadow = this.shadows.get(agentId);
    if (shadow === undefined) {
      shadow = { exactMicro, value: toNumber(exactMicro) };
      this.shadows.set(agentId, shadow);
      return shadow;
    }
    if (shadow.exactMicro !== exactMicro) {
      shadow.value = shadow.value + toNumber(exactMicro - shadow.exactMicro);
      shadow.exactMicro = exactMicro;
    }
    return shadow;
  }
}

/** The deployment's display rounding (`Math.round(x * 100) / 100`): `amount_won`, `new_balance`. */
export function roundCents(value: number): number {
  return Math.round(value * 100) / 100;
}
