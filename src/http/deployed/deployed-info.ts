/**
 * The deployment's `_info` object (spec/DEPLOYED.md §1.2, NOTES.md "Shared"): `service` is the
 * repository's name, `docs` its llms.txt on `https://<service>.purpleflea.com`, `referral` names the
 * gossip path, `version` 1.0.0 (trading 3.0.0). Added by the deployed dispatcher to every JSON object body, error
 * bodies included. One frozen object per service, shared by every answer.
 */
import type { JsonObject } from '../../core/errors.ts';
import type { ServiceName } from '../../platform/platform.ts';
import { deployedPath } from './deployed-wire.ts';

function info(repository: string, host: string, gossipPath: string, version = '1.0.0'): Readonly<JsonObject> {
  return Object.freeze({
    service: repository,
    docs: `https://${host}.purpleflea.com/llms.txt`,
    referral: `Earn by referring other agents: GET ${gossipPath} for your referral code and the network's services.`,
    version,
  });
}

const DEPLOYED_INFO: Readonly<Record<ServiceName, Readonly<JsonObject>>> = {
  casino: info('agent-casino', 'casino', deployedPath('casino.deployed.gossip')),
  faucet: info('agent-faucet', 'faucet', '/gossip'),
  escrow: info('agent-escrow', 'escrow', '/gossip'),
  trading: info('agent-trading', 'trading', deployedPath('trading.deployed.gossip'), '3.0.0'),
  wallet: info('public-wallet', 'wallet', deployedPath('wallet.deployed.gossip')),
  domains: info('agent-domains', 'domains', deployedPath('domains.deployed.gossip')),
};

export function deployedInfo(service: ServiceName): Readonly<JsonObject> {
  return DEPLOYED_INFO[service];
}
