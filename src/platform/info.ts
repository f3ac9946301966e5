/**
 * The `_info` object added to every JSON object response, error bodies included
 * (spec/NOTES.md "Shared"): `{ service, docs, referral, version }`. One frozen object per
 * service, shared by every response: building it per request would cost time on the hot path.
 */
import type { JsonObject } from '../core/errors.ts';
import type { ServiceName } from './service-names.ts';

const REFERRAL_TEXT: Record<ServiceName, string> = {
  faucet: 'Register agents with your agent id as referrer: earn 15% of their future fees.',
  escrow: 'Pass referrer on escrow creation: the referrer earns 15% of the 1% escrow fee.',
  trading: "Referrers earn 20% of referred agents' trading fees.",
  domains: "Referrers earn 15% of referred agents' domain fees.",
  wallet: "Referrers earn 10% of referred agents' wallet fees.",
  casino: "Referrers earn 10% / 5% / 2.5% of referred agents' net losses over 3 levels.",
};

/** platform.md Versioning labels the interface v1; casino.md: the casino reports 1.0.0. */
const VERSION: Record<ServiceName, string> = {
  faucet: 'v1',
  escrow: 'v1',
  trading: 'v1',
  domains: 'v1',
  wallet: 'v1',
  casino: '1.0.0',
};

function infoFor(service: ServiceName): Readonly<JsonObject> {
  return Object.freeze({ service, docs: '/openapi.json', referral: REFERRAL_TEXT[service], version: VERSION[service] });
}

export const INFO: Readonly<Record<ServiceName, Readonly<JsonObject>>> = {
  faucet: infoFor('faucet'),
  escrow: infoFor('escrow'),
  trading: infoFor('trading'),
  domains: infoFor('domains'),
  wallet: infoFor('wallet'),
  casino: infoFor('casino'),
};

/** `_info` for responses that belong to no service (unknown routes on the shared api_url). */
export const PLATFORM_INFO: Readonly<JsonObject> = Object.freeze({
  service: 'platform',
  docs: '/openapi.json',
  referral: REFERRAL_TEXT.faucet,
  version: 'v1',
});

/** `_info` of a service's responses; PLATFORM_INFO for none (null). */
export function infoOf(service: ServiceName | null): Readonly<JsonObject> {
  return service === null ? PLATFORM_INFO : INFO[service];
}
