/**
 * Every deliberate defect and the shipped scenario whose run finds it: the table the "shrink every
 * defect" tests walk. Why a table: a new defect added to DEFECT_NAMES without a row here fails the
 * completeness test, so no defect goes undemonstrated.
 * `invariant` is the one that fails first for the scenario's own seed (found by running it; the
 * test checks it, so a change that moves the failure is seen).
 */
import type { DefectName } from '../../src/services/shared/context.ts';

export interface DefectCase {
  readonly defect: DefectName;
  readonly scenario: string;
  readonly invariant: string;
}

export const QUICKSTART_CASES: readonly DefectCase[] = [
  { defect: 'mint-on-claim', scenario: 'scenarios/quickstart.yaml', invariant: 'conservation' },
  { defect: 'escrow-fee-2pct', scenario: 'scenarios/quickstart.yaml', invariant: 'agent-assertions' },
  { defect: 'faucet-cooldown-23h', scenario: 'scenarios/quickstart.yaml', invariant: 'faucet-cooldown' },
  { defect: 'escrow-release-twice', scenario: 'scenarios/quickstart.yaml', invariant: 'escrow-settles-once' },
];

export const CASINO_CASES: readonly DefectCase[] = [
  { defect: 'casino-payout-short', scenario: 'scenarios/house-edge.yaml', invariant: 'casino-bets-verify' },
  { defect: 'casino-biased-draw', scenario: 'scenarios/house-edge.yaml', invariant: 'casino-bets-verify' },
  { defect: 'casino-replayable-nonce', scenario: 'scenarios/house-edge.yaml', invariant: 'casino-bets-verify' },
  { defect: 'casino-skip-balance-check', scenario: 'scenarios/house-edge.yaml', invariant: 'no-negative-balance' },
  { defect: 'casino-keno-8', scenario: 'scenarios/house-edge.yaml', invariant: 'casino-bets-verify' },
  { defect: 'payout-table-differs', scenario: 'scenarios/house-edge.yaml', invariant: 'casino-bets-verify' },
  { defect: 'keno-short-draw', scenario: 'scenarios/house-edge.yaml', invariant: 'casino-bets-verify' },
  { defect: 'withdraw-no-balance-check', scenario: 'scenarios/house-edge.yaml', invariant: 'no-negative-balance' },
];

/**
 * Defects no in-process invariant can see, with the test that catches them: the batch summary's
 * figures are a rendering of the deployed dialect only (the bets and the ledger stay right); a
 * stuck dispute breaks no safety rule, only liveness; an unpaid domain sale moves no money; a
 * registration race needs two concurrent requests, which a simulated run never sends.
 */
export const CAUGHT_ELSEWHERE: Readonly<Partial<Record<DefectName, string>>> = {
  'batch-summary-zero': 'test/server/serve-deployed.test.ts (and test/cli/audit-deployed.test.ts)',
  // Nothing wrong happens, something never does: the liveness phase's stuck item, exit 4.
  'escrow-dispute-stuck': 'test/sim/liveness.test.ts',
  // The fee moves to fee income at expiry (conservation holds): the settlement probe sees the short refund.
  'escrow-expiry-keeps-fee': 'test/live/settlement-probes.test.ts',
  // An unpaid sale moves no money (conservation holds); the money probe and the domains check see the name move.
  'domains-sale-unpaid': 'test/live/money-probes.test.ts (and test/check/domains/domains-check.test.ts)',
  // A check-only defect: an unpaid taker fee moves no money wrongly (conservation holds, no balance
  // goes negative), so no scenario invariant sees it; the trading check predicts the fee and sees it.
  'trading-fee-unpaid': 'test/check/trading/trading-check.test.ts',
  // Check-only defects of time: funding a tick late, a liquidation settled as a close, a limit
  // filled at the quote move no money wrongly in sum; the check predicts each tick exactly.
  'trading-funding-late': 'test/check/trading/trading-time-check.test.ts',
  'trading-liquidation-as-close': 'test/check/trading/trading-time-check.test.ts',
  'trading-limit-at-quote': 'test/check/trading/trading-time-check.test.ts',
  // A race needs two registrations of one name in one millisecond: the simulator sends one request
  // at a time and its agents never register one name twice in one instant, so no run meets it;
  // the money probe sends two at once to afp serve, which serves both at the same instant.
  'domains-registration-race': 'test/live/money-probes.test.ts',
  // Seen by the referral-levels invariant, which no shipped scenario of this table runs (the
  // referral tree scenario is not shrunk here): the invariant's own test drives the defect.
  'referral-level2-full-share': 'test/sim/invariants/referral-levels.test.ts',
  // A check-only defect: an uncharged wallet fee moves no chain money wrongly (conservation holds);
  // the wallet check predicts the send's fee (and, in-process, the fee accounts) and sees it.
  'wallet-fee-uncharged': 'test/check/wallet/wallet-defect.test.ts',
  // The real casino's pot defects, for the live audit (a property population finds them too:
  // every-defect-property.test.ts); the scenarios of these tables are not shrunk for them.
  'tournament-pool-minted': 'test/live/pot-probes.test.ts',
  'challenge-loser-charged-twice': 'test/live/pot-probes.test.ts',
  // The deployment's MCP doors: only a tool call of afp serve --dialect deployed's /mcp meets them.
  'mcp-claim-skips-ip-cooldown': 'test/live/mcp-probes.test.ts',
  'mcp-release-credits-nobody': 'test/live/mcp-probes.test.ts',
};

/** Candidate runs per shrink: enough to reach one or two agents from these scenarios. */
export const DEFECT_SHRINK_RUNS = 80;
