/**
 * The dialects afp speaks, by name. The documents' style B offers its faucet and escrow (replay
 * reads recorded style B answers through them), not yet its casino (style A's table reaches B's
 * history on the shared api_url, the documents' only history); the short style offers no operation
 * yet: a command asked for one says the dialect does not offer it, never guesses a path.
 */
import type { DialectName } from '../target.ts';
import type { Dialect } from './dialect.ts';
import { CASINO_A } from './documents/casino-a.ts';
import { CASINO_AUDIT_A } from './documents/casino-audit-a.ts';
import { FAUCET_ESCROW_A } from './documents/faucet-escrow-a.ts';
import { FAUCET_ESCROW_B } from './documents/faucet-escrow-b.ts';
import { DOMAINS_A, DOMAINS_B } from './documents/domains.ts';
import { TRADING_A } from './documents/trading-a.ts';
import { TRADING_B } from './documents/trading-b.ts';
import { TRADING_ORDERS_A, TRADING_ORDERS_B } from './documents/trading-orders.ts';
import { CASINO_DEPLOYED } from './deployed/casino.ts';
import { CASINO_AUDIT_DEPLOYED } from './deployed/casino-audit.ts';
import { DOMAINS_DEPLOYED } from './deployed/domains.ts';
import { FAUCET_ESCROW_DEPLOYED } from './deployed/faucet-escrow.ts';
import { TRADING_DEPLOYED } from './deployed/trading.ts';
import { WALLET_DEPLOYED } from './deployed/wallet.ts';
import { WALLET_DOCUMENTS } from './documents/wallet.ts';
import { CASINO_READS_A, CASINO_READS_DEPLOYED } from './casino-read-rows.ts';
import { REFERRAL_STATS_A, REFERRAL_STATS_B, REFERRAL_STATS_DEPLOYED } from './referral-stats.ts';
import { WALLET_READS } from './wallet-reads.ts';

const DIALECTS: Readonly<Record<DialectName, Dialect>> = {
  A: {
    name: 'A',
    errorName: 'code',
    rows: {
      ...CASINO_A,
      ...CASINO_AUDIT_A,
      ...CASINO_READS_A,
      ...FAUCET_ESCROW_A,
      ...TRADING_A,
      ...TRADING_ORDERS_A,
      ...DOMAINS_A,
      ...WALLET_DOCUMENTS,
      ...WALLET_READS,
      ...REFERRAL_STATS_A,
    },
  },
  B: {
    name: 'B',
    errorName: 'code',
    rows: {
      ...FAUCET_ESCROW_B,
      ...DOMAINS_B,
      ...TRADING_B,
      ...TRADING_ORDERS_B,
      ...WALLET_DOCUMENTS,
      ...WALLET_READS,
      ...REFERRAL_STATS_B,
    },
  },
  short: { name: 'short', errorName: 'code', rows: {} },
  deployed: {
    name: 'deployed',
    errorName: 'error',
    rows: {
      ...CASINO_DEPLOYED,
      ...CASINO_AUDIT_DEPLOYED,
      ...CASINO_READS_DEPLOYED,
      ...FAUCET_ESCROW_DEPLOYED,
      ...TRADING_DEPLOYED,
      ...DOMAINS_DEPLOYED,
      ...WALLET_DEPLOYED,
      ...WALLET_READS,
      ...REFERRAL_STATS_DEPLOYED,
    },
    refusingRateLimits: ['ip_rate_limited'],
  },
};

export function dialectByName(name: DialectName): Dialect {
  return DIALECTS[name];
}
