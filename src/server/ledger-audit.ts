/**
 * The ledger audit of GET /_afp/state (every account's balance summed again, to compare with the
 * ledger's running sum) as a sliced job under afp serve's platform lock (platform-lock.ts): a
 * step sums `units` accounts, so a ledger of a million accounts is read in slices with GET /health
 * answered between them. Holding the lock, nothing moves money between two steps, and accounts are
 * only ever appended: the pieces add up to `auditSum()` at the job's last turn.
 */
import type { Ledger } from '../core/ledger.ts';
import type { Micro } from '../core/money.ts';
import type { SlicedJob } from './platform-lock.ts';

export function ledgerAuditJob(ledger: Ledger): SlicedJob<Micro> {
  let next = 0;
  let total = 0n;
  return {
    step: (units) => {
      const count = Math.max(1, Math.min(units, ledger.accountCount - next));
      total += ledger.auditSumOf(next, count);
      next += count;
      return next >= ledger.accountCount;
    },
    finish: () => total,
  };
}
