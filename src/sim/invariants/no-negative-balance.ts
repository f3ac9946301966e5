/**
 * Invariant `no-negative-balance`: no account but `external` (the world outside the platform)
 * is ever below zero: checked for both sides of every transfer as it happens, and over every
 * account at the end of the run.
 */
import { EXTERNAL } from '../../core/ledger.ts';
import { jsonText } from '../json-text.ts';
import type { InvariantDefinition } from './checker.ts';

export const noNegativeBalance: InvariantDefinition = {
  name: 'no-negative-balance',
  description: 'no account other than external is ever negative',
  create({ platform, nowMs }) {
    const ledger = platform.ledger;
    return {
      onTransfer(transfer) {
        for (const account of [transfer.from, transfer.to]) {
          if (account === EXTERNAL) continue;
          const balance = ledger.balance(account);
          if (balance < 0n)
            return {
              atMs: nowMs(),
              event: jsonText(transfer),
              message: `${account} is negative (${balance} micro-USDC) after ${transfer.reason}`,
            };
        }
        return null;
      },
      atEnd(endMs) {
        const negative = ledger.negativeAccounts();
        if (negative.length === 0) return null;
        const shown = negative.slice(0, 10).map((account) => `${account} = ${ledger.balance(account)}`);
        return {
          atMs: endMs,
          event: jsonText({ negativeAccounts: shown }),
          message: `${negative.length} account(s) negative at the end: ${shown.join(', ')}`,
        };
      },
    };
  },
};
