/**
 * The whole conformance suite in run order: rejections first, then the happy paths, then the
 * time-dependent cases (they move the target's clock, so nothing after them depends on the hour).
 * Layout (docs/layout.md): cases of one service only live in that service's folder (casino/); the
 * faucet and escrow cases stay here because each file mixes both (an escrow needs registered agents);
 * trading/ has no time cases (its happy paths do not move the clock).
 */
import { CASINO_ENDPOINTS, type CasinoEndpointId } from '../client/casino-client.ts';
import { TRADING_ENDPOINTS, type TradingEndpointId } from '../client/trading-client.ts';
import { ENDPOINT_IDS, type EndpointId } from '../client/client.ts';
import { DOMAINS_ENDPOINTS, type DomainsEndpointId } from '../client/domains-client.ts';
import { CASINO_REJECTION_CASES } from './casino/casino-cases.ts';
import { CASINO_HAPPY_CASES } from './casino/casino-happy-cases.ts';
import { DOMAINS_REJECTION_CASES } from './domains/domains-cases.ts';
import { DOMAINS_HAPPY_CASES } from './domains/domains-happy-cases.ts';
import type { ConformanceCase } from './conformance-case.ts';
import { HAPPY_CASES } from './happy-cases.ts';
import { TRADING_REJECTION_CASES } from './trading/trading-cases.ts';
import { TRADING_HAPPY_CASES } from './trading/trading-happy-cases.ts';
import { REJECTION_CASES } from './rejection-cases.ts';
import { WALLET_STYLE_ENDPOINTS, WALLET_STYLE_REJECTION_CASES } from './wallet/wallet-style-cases.ts';
import type { WalletEndpointId } from '../client/wallet-client.ts';

export const CONFORMANCE_CASES: readonly ConformanceCase[] = [
  ...REJECTION_CASES,
  ...CASINO_REJECTION_CASES,
  ...TRADING_REJECTION_CASES,
  ...DOMAINS_REJECTION_CASES,
  ...WALLET_STYLE_REJECTION_CASES,
  ...HAPPY_CASES.filter((kase) => !kase.needsClock),
  ...CASINO_HAPPY_CASES.filter((kase) => !kase.needsClock),
  ...TRADING_HAPPY_CASES,
  ...DOMAINS_HAPPY_CASES.filter((kase) => !kase.needsClock),
  ...HAPPY_CASES.filter((kase) => kase.needsClock),
  ...CASINO_HAPPY_CASES.filter((kase) => kase.needsClock),
  ...DOMAINS_HAPPY_CASES.filter((kase) => kase.needsClock),
];

/** The endpoints no case aims at (empty when the suite covers the whole table; of the wallet, its style rows). */
export function uncoveredEndpoints(
  cases: readonly ConformanceCase[],
): Array<EndpointId | CasinoEndpointId | TradingEndpointId | DomainsEndpointId | WalletEndpointId> {
  const covered = new Set<string>();
  for (const kase of cases) {
    if (kase.kind === 'script') for (const endpoint of kase.endpoints) covered.add(endpoint);
    else if (kase.endpoint !== null) covered.add(kase.endpoint);
  }
  const all: Array<EndpointId | CasinoEndpointId | TradingEndpointId | DomainsEndpointId | WalletEndpointId> = [
    ...WALLET_STYLE_ENDPOINTS,
    ...ENDPOINT_IDS,
    ...(Object.keys(CASINO_ENDPOINTS) as CasinoEndpointId[]),
    ...(Object.keys(TRADING_ENDPOINTS) as TradingEndpointId[]),
    ...(Object.keys(DOMAINS_ENDPOINTS) as DomainsEndpointId[]),
  ];
  return all.filter((endpoint) => !covered.has(endpoint));
}
