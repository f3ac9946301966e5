/**
 * DomainsClient: the domains endpoints (styles A and B) over the same Transport as AfpClient,
 * reachable as `client.domains`, with typed requests and answers (the wire shapes of
 * src/http/routes/domains/domains.ts). The endpoint table is the server's domains rows, id for id
 * (generated: endpoint-table.ts). Identity comes from the AfpClient that made it.
 */
import { endpointsOf } from './endpoints.ts';
import type { ApiResult, CallInput } from './call.ts';
import { ServiceClient } from './service-client.ts';
import type { DnsType } from '../services/domains/dns-records.ts';

/** The domains rows of the route table (generated: src/client/endpoint-table.ts). */
export const DOMAINS_ENDPOINTS = endpointsOf('domains');

export type DomainsEndpointId = keyof typeof DOMAINS_ENDPOINTS;

export interface DnsRecordInput {
  type: DnsType;
  /** '@' (default) or a relative host. */
  name?: string;
  value: string;
  ttl?: number;
  /** MX only. */
  priority?: number;
}

export interface DnsRecordOut {
  type: DnsType;
  name: string;
  value: string;
  ttl: number;
  priority: number | null;
}

export interface DomainsCheckResponse {
  domain: string;
  available: boolean;
  price_usdc: number;
}

export interface DomainsARegisterResponse {
  domain: string;
  expires_at: string;
}

export interface DomainsAItem {
  domain: string;
  status: 'active' | 'expired';
  registered_at: string;
  expires_at: string;
  grace_ends_at: string;
  resolver: string | null;
}

export interface DomainsBItem {
  domain: string;
  status: 'active' | 'expired';
  registered_at: string;
  expires: string;
  grace_ends: string;
  resolver: string | null;
}

export interface DomainsDnsResponse {
  domain: string;
  records: DnsRecordOut[];
  count: number;
}

export interface DomainsValuationResponse {
  domain: string;
  score: number;
  value_usdc: number;
  category: 'premium' | 'standard' | 'budget' | 'low-value';
  breakdown: { tld: number; length: number; keyword: number; penalty: number; pronounceability: number };
}

export interface DomainsBRegisterResponse {
  domain: string;
  cost: string;
  expires: string;
  tx_hash: string;
}

export interface DomainsLookupResponse {
  domain: string;
  status: 'active' | 'expired';
  owner: string;
  owner_address: string;
  registered_at: string;
  expires: string;
  grace_ends: string;
  resolver: string | null;
  records: DnsRecordOut[];
  offer: { to: string; price: string; offered_at: string } | null;
}

export interface DomainsRenewResponse {
  domain: string;
  years: number;
  cost: string;
  expires: string;
  tx_hash: string;
}

export interface DomainsTransferResponse {
  domain: string;
  status: 'offered' | 'completed';
  from: string;
  to: string;
  price: string | null;
  owner: string;
  tx_hash: string | null;
}

export type DomainsCall = (endpoint: DomainsEndpointId, input: CallInput) => Promise<ApiResult<unknown>>;

export class DomainsClient extends ServiceClient<DomainsCall> {
  check(domain: string): Promise<ApiResult<DomainsCheckResponse>> {
    return this.typed('domains.A.check', { query: { domain } });
  }

  registerA(body: { domain: string; years?: number }): Promise<ApiResult<DomainsARegisterResponse>> {
    return this.typed('domains.A.register', { body });
  }

  domainsA(): Promise<ApiResult<{ domains: DomainsAItem[]; count: number }>> {
    return this.typed('domains.A.domains', {});
  }

  setDns(body: { domain: string; records: DnsRecordInput[] }): Promise<ApiResult<DomainsDnsResponse>> {
    return this.typed('domains.A.dns', { body });
  }

  dns(domain: string): Promise<ApiResult<DomainsDnsResponse>> {
    return this.typed('domains.A.dns.list', { query: { domain } });
  }

  valuation(domain: string): Promise<ApiResult<DomainsValuationResponse>> {
    return this.typed('domains.A.valuation', { query: { domain } });
  }

  registerB(body: { domain: string; years?: number; resolver?: string }): Promise<ApiResult<DomainsBRegisterResponse>> {
    return this.typed('domains.B.register', { body });
  }

  lookup(domain: string): Promise<ApiResult<DomainsLookupResponse>> {
    return this.typed('domains.B.lookup', { params: { domain } });
  }

  domainsB(): Promise<ApiResult<{ domains: DomainsBItem[]; count: number }>> {
    return this.typed('domains.B.domains', {});
  }

  renew(body: { domain: string; years?: number }): Promise<ApiResult<DomainsRenewResponse>> {
    return this.typed('domains.B.renew', { body });
  }

  /** A gift without `price`; with it, an offer (owner) or its acceptance (buyer: to = itself). */
  transfer(body: { domain: string; to: string; price?: string | number }): Promise<ApiResult<DomainsTransferResponse>> {
    return this.typed('domains.B.transfer', { body });
  }

  private async typed<T>(endpoint: DomainsEndpointId, input: CallInput): Promise<ApiResult<T>> {
    return (await this.call(endpoint, input)) as ApiResult<T>;
  }
}
