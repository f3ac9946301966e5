/**
 * Target: a live deployment as afp's live commands address it, after `--target URL|FILE` is resolved
 * (src/live/target-file.ts reads and validates a target file; a URL is probed for `/_afp/mounts`).
 * Each service has its own base URL and dialect (the wire shape it speaks: the documents' styles
 * A, B and short, or `deployed`, spec/DEPLOYED.md). Registration, funding, the rate limits to pace
 * under and the casino's fairness scheme are the target's, never assumed by a command.
 * Non-goals: reading or writing files (target-file.ts), talking to the target (the dialects and
 * commands do).
 */
import type { ServiceName } from '../platform/platform.ts';
import type { FairnessSchemeName } from '../audit/options.ts';

export const DIALECT_NAMES = ['A', 'B', 'short', 'deployed'] as const;
export type DialectName = (typeof DIALECT_NAMES)[number];

export interface TargetService {
  /** Base URL without a trailing slash; paths are appended to it. */
  readonly url: string;
  readonly dialect: DialectName;
}

/** How an agent gets funds on this target. */
export type Funding =
  /** afp serve only: POST /_afp/casino/deposit (a simulated chain deposit). */
  | { readonly method: 'admin-deposit' }
  /** The target's faucet (small amounts: 1 USDC once on a deployment). */
  | { readonly method: 'faucet' }
  /** Pre-funded agents: their API keys (from the file, or from an environment variable). */
  | { readonly method: 'keys'; readonly keys: readonly string[] }
  /** A command the user supplies, run with AFP_AGENT_ID, AFP_API_KEY, AFP_AMOUNT, AFP_SERVICE in its environment. */
  | { readonly method: 'command'; readonly command: string };

export interface PaceLimit {
  readonly perMinute: number;
  readonly burst?: number;
  /** The bucket the target counts this operation in with others (the deployment's `games`): one pace, one window. */
  readonly bucket?: string;
}

export interface Target {
  /** A name for reports: the file's `name`, or the URL. */
  readonly name: string;
  /** Where it came from: the file's path, or the URL given. */
  readonly source: string;
  readonly services: Partial<Record<ServiceName, TargetService>>;
  /** Where a fresh agent registers; null when the target offers no registration (keys only). */
  readonly register: { readonly service: ServiceName } | null;
  readonly funding: Funding;
  /** Operation name (e.g. `casino.batch`, `casino.bet`, `escrow.create`) → the pace to keep. */
  readonly limits: Readonly<Record<string, PaceLimit>>;
  readonly fairness: FairnessSchemeName;
  /** The target announced `/_afp/mounts`: an afp serve, whose admin endpoints (`/_afp/*`) may be used. */
  readonly afpServe: boolean;
  /** afp serve's admin base URL (its `api` mount), when `afpServe`. */
  readonly adminUrl: string | null;
  /**
   * true only for an afp serve whose `GET /_afp/mounts` says `forwarded_for: trusted`: the set-up
   * calls its per-IP limits count (a registration, a faucet claim: one a day per IP) each announce a
   * new client address (X-Forwarded-For), as `afp check --target URL` does. Never for another target.
   */
  readonly freshClientAddresses?: boolean;
}
