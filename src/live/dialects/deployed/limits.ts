/**
 * The deployed platform's rate limits as afp operations' paces (spec/DEPLOYED.md §1.3, §2.12, §3,
 * §4, §5, §6): fixed 60-second windows, per IP per path or per agent, no bursts. `afp target probe` writes
 * them into the target file of a deployment it recognizes; targets/deployed.yaml carries the same
 * rows (a test holds the two together). Operations without a row are not limited by the deployment.
 */
import { deployedEndpoint } from '../../../http/deployed/deployed-wire.ts';
import type { OperationName } from '../../operations.ts';
import type { PaceLimit } from '../../target.ts';

export interface DeployedLimitRow {
  readonly perMinute: PaceLimit['perMinute'];
  /** The bucket the deployment counts the operation in with others (`games`: bet, deal, draw). */
  readonly bucket?: string;
  /** What DEPLOYED.md says, for the written file's comment. */
  readonly why: string;
}

export const DEPLOYED_LIMITS: Readonly<Partial<Record<OperationName, DeployedLimitRow>>> = {
  'casino.register': { perMinute: 10, why: '/auth/register: 10 per IP per 60 s' },
  'casino.bet': { perMinute: 60, bucket: 'games', why: 'single games: the `games` bucket, 60 per agent per minute' },
  'casino.deal': { perMinute: 60, bucket: 'games', why: 'video poker deal: a single game, the `games` bucket' },
  'casino.draw': { perMinute: 60, bucket: 'games', why: 'video poker draw: a single game, the `games` bucket' },
  'casino.batch': { perMinute: 10, why: '/bets/batch: the `batch` bucket, 10 per agent per minute' },
  'casino.history': { perMinute: 60, why: '/bets/history: 60 per IP per path per 60 s (/bets/*)' },
  'casino.withdraw': { perMinute: 5, why: '/auth/withdraw: 5 per IP per 60 s' },
  'faucet.claim': { perMinute: 5, why: '5 per IP per minute (and one credited claim per IP per 24 h)' },
  'escrow.create': { perMinute: 20, why: `${deployedEndpoint('escrow.deployed.create').path}: 20 per IP per 60 s` },
  'escrow.release': { perMinute: 30, why: `${deployedEndpoint('escrow.deployed.release').path}: 30 per IP per 60 s` },
  'trading.register': {
    perMinute: 10,
    why: `${deployedEndpoint('trading.deployed.register').path}: 10 per IP per 60 s`,
  },
  'trading.order': { perMinute: 30, why: `${deployedEndpoint('trading.deployed.open').path}: 30 per IP per 60 s` },
  'trading.close': { perMinute: 30, why: `${deployedEndpoint('trading.deployed.close').path}: 30 per IP per 60 s` },
  'wallet.register': { perMinute: 10, why: `${deployedEndpoint('wallet.deployed.register').path}: 10 per IP per 60 s` },
  'wallet.send': { perMinute: 20, why: `${deployedEndpoint('wallet.deployed.send').path}: 20 per IP per 60 s` },
};
