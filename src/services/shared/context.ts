/**
 * ServiceContext: what the platform hands to every service operation. Services are pure
 * functions of (context, command, nowMs) returning an Outcome; everything they may touch is here.
 * No HTTP, no wall clock, no ambient randomness.
 */
import type { IdSource } from '../../core/ids.ts';
import type { Ledger } from '../../core/ledger.ts';
import type { Rng } from '../../core/rng.ts';
import type { Scheduler } from '../../core/scheduler.ts';
import type { AgentRegistry } from './agents.ts';
import type { PlatformConfig } from './config.ts';
import type { EventSink } from './events.ts';
import type { ReferralBook } from './referral.ts';

/** Timed work the platform runs at an exact instant (escrow expiry, dispute windows, payouts). */
export type PlatformTimer =
  | { kind: 'escrow.expire'; escrowId: string }
  | { kind: 'escrow.dispute-window'; escrowId: string }
  | { kind: 'referral.sweep' }
  | { kind: 'casino.tournament'; tournamentId: string }
  | { kind: 'casino.challenge-expire'; challengeId: string }
  | { kind: 'casino.deposit-confirm'; depositId: string }
  | { kind: 'casino.withdrawal-review'; withdrawalId: string }
  | { kind: 'casino.crash-round'; roundId: string }
  | { kind: 'domains.expire'; domainId: string; domain: string; atMs: number }
  | { kind: 'domains.release'; domainId: string; domain: string; atMs: number }
  | { kind: 'trading.tick' }
  | { kind: 'trading.funding' }
  | {
      kind: 'wallet.block';
      chain: 'ethereum' | 'base' | 'solana' | 'bitcoin' | 'tron' | 'monero' | 'polygon' | 'arbitrum';
      atMs: number;
    }
  | { kind: 'wallet.swap'; orderId: string; step: 'expire' | 'exchange' | 'send' };

/**
 * Deliberate defects (`afp run|serve|check --defect NAME`, tests and demos only), one table for
 * every command. Each makes a service misbehave in one named way that some invariant, check or
 * audit must catch; test/shrink/defect-cases.ts says which.
 */
export const DEFECT_NAMES = [
  'mint-on-claim',
  'escrow-fee-2pct',
  'faucet-cooldown-23h',
  'escrow-release-twice',
  'casino-payout-short',
  'casino-biased-draw',
  'casino-replayable-nonce',
  'casino-skip-balance-check',
  'casino-keno-8',
  // A disputed escrow whose window never closes (its timer is not scheduled): no safety invariant
  // sees it, the liveness phase (src/sim/liveness.ts) does.
  'escrow-dispute-stuck',
  // A domain sale whose buyer cannot pay still moves the name (no payment): the money probe
  // `domain-unpaid-transfer` and the domains check must see it.
  'domains-sale-unpaid',
  // A taker fill (a market order, or a limit marketable when placed) charges no fee: no money is
  // created or lost (conservation holds), the trading check sees the fee answered and the balance.
  'trading-fee-unpaid',
  // Funding one tick late (00:01, 08:01, 16:01 UTC, at that tick's mark): no money is created or
  // lost; the trading check predicts funding at its exact instant and sees the margins.
  'trading-funding-late',
  // A liquidation settled as a voluntary close: what is left of the margin goes back to the agent
  // (not to insurance) and a loss beyond it is taken from the balance; conservation holds, the
  // trading check's balance read-back after the tick sees it.
  'trading-liquidation-as-close',
  // A resting limit order fills at the crossing tick's quote instead of its limit: the trading
  // check predicts the fill at the limit and sees the entry, quantity and margin.
  'trading-limit-at-quote',
  // A registration in the same millisecond as an earlier one of the same name does not see it (a
  // check-then-act race): both are charged and answered 201, the later one takes the name. The
  // money probe `domain-double-registration` must see it against afp serve (two concurrent requests
  // share the served instant); simulated agents never register one name twice in one millisecond.
  'domains-registration-race',
  // The deployment's faults (spec/DEPLOYED.md), for audits of the live commands against afp serve
  // --dialect deployed (usable in either dialect): coin_flip pays 2.00x where the game table says
  // 1.96x (the deployed dialect: 1.99x); keno draws from 1..79 (80 is never drawn; the deployed
  // dialect plays both as perturbed rules, src/http/routes/deployed/deployed-rules-of.ts); a withdrawal skips the balance check (bets keep
  // theirs); a batch summary reports total_wagered 0 and net_pnl = total_won.
  'payout-table-differs',
  'keno-short-draw',
  'withdraw-no-balance-check',
  'batch-summary-zero',
  // The deployment's escrow expiry (DEPLOYED.md §4): the creator gets amount − commission back and
  // the commission goes to fee income, where the documents refund the full amount with no fee.
  // Money is conserved; `afp audit money --include-slow` sees the short refund.
  'escrow-expiry-keeps-fee',
  // Level 2 of a fee-service referral chain is paid the level-1 share instead of half of it: the
  // referral-levels invariant must see it.
  'referral-level2-full-share',
  // A wallet send charges no fee (the transaction says fee 0 and the fee account gains nothing):
  // chain money is conserved, so no invariant sees it; afp check's send answer and fee accounts do.
  'wallet-fee-uncharged',
  // The real casino's tournaments and challenges (spec/NOTES.md), for audits of the live commands: a
  // tournament's prize pool is minted instead of taken from its creator (the conservation invariant
  // sees it; the money probe `tournament-pool` sees the creator's balance not move); a losing
  // challenger pays its stake twice, the second time to the house (the ledger's sum holds: the
  // casino-conservation invariant sees it; the money probe `challenge-settlement` sees the pair lose
  // more than the cut the answer states).
  'tournament-pool-minted',
  'challenge-loser-charged-twice',
  // The deployment's MCP doors (DEPLOYED.md §3, §4), on afp serve --dialect deployed's /mcp only:
  // `claim_faucet` skips the per-IP claim cooldown that POST /faucet/claim keeps (the money probe
  // `mcp-faucet-cooldown` sees a second claim from one address paid over MCP); `release_escrow`
  // marks the escrow released and credits nobody, the held amount gone (the ledger no longer sums
  // to zero: GET /_afp/state `balanced: false`; the money probe `mcp-escrow-release` and afp check's
  // release through the door see the counterparty not paid).
  'mcp-claim-skips-ip-cooldown',
  'mcp-release-credits-nobody',
] as const;

export type DefectName = (typeof DEFECT_NAMES)[number];

/**
 * The defects that act in one of afp serve's dialects only: the code each changes is reached by that
 * dialect's routes alone (the other serves no route to it), so in the other it is inert. One rule
 * for every command: afp serve refuses such a defect in the other dialect, and the in-process
 * commands (run, sweep, check), which run the documents' platform, refuse the deployed ones. A
 * defect not listed acts in both. `where` says what it acts on.
 */
export const DEFECT_DIALECTS: Readonly<
  Partial<Record<DefectName, { readonly dialect: 'documents' | 'deployed'; readonly where: string }>>
> = {
  'mcp-claim-skips-ip-cooldown': { dialect: 'deployed', where: "afp serve --dialect deployed's MCP doors" },
  'mcp-release-credits-nobody': { dialect: 'deployed', where: "afp serve --dialect deployed's MCP doors" },
  // The deployed faucet serves the one-time claim (style A) only: no route claims again after a cooldown.
  'faucet-cooldown-23h': {
    dialect: 'documents',
    where: "the documents' repeat faucet claim (style B) and its cooldown",
  },
  // The deployed domains have no offer or purchase (a transfer is a gift, DEPLOYED.md §7): no sale to leave unpaid.
  'domains-sale-unpaid': {
    dialect: 'documents',
    where: "the documents' priced domain sale (an offer, then a purchase)",
  },
};

export interface ServiceContext {
  readonly ledger: Ledger;
  readonly agents: AgentRegistry;
  readonly ids: IdSource;
  readonly rng: Rng;
  readonly config: PlatformConfig;
  readonly timers: Scheduler<PlatformTimer>;
  readonly emit: EventSink;
  /** Referral shares and payouts; set once by the platform after construction. */
  readonly referrals: ReferralBook;
  /** Deliberate defects for tests and demos (`afp serve --defect`); empty in normal runs. */
  readonly defects: ReadonlySet<DefectName>;
}
