/**
 * AfpClient: one typed client over a Transport, used by agents, checks, replay and bench alike.
 * A thin table: one row per endpoint (the contract's id, its mount, method, path template and style),
 * generated from the route rows (endpoint-table.ts);
 * the grouped methods (`faucetA.claim()`, `escrowB.release(id)`...) are one line each over
 * `call(id, input)`. Identity (API key, originating IP) lives in the client: `withKey`/`withIp`
 * return a new client over the same transport.
 *
 * Invariants: path parameters are URL-encoded; `ok` is exactly "status is 2xx"; a failed call
 * resolves with the error body (a body without string `error`/`code`, from a foreign server, is
 * wrapped as code 'UNKNOWN' and kept under `body`), only transport trouble rejects.
 * Non-goals: retries, validation of answers (conformance checks compare answers to the model).
 */
import type { RouteEndpointRow } from './endpoint-table.ts';
import { endpointsOf } from './endpoints.ts';
import { CASINO_ENDPOINTS, CasinoClient, type CasinoBody, type CasinoEndpointId } from './casino-client.ts';
import { DOMAINS_ENDPOINTS, DomainsClient, type DomainsEndpointId } from './domains-client.ts';
import { WALLET_ENDPOINTS, WalletClient, type WalletEndpointId } from './wallet-client.ts';
import { TRADING_ENDPOINTS, TradingClient, type TradingBody, type TradingEndpointId } from './trading-client.ts';
import type { Transport, TransportRequest, TransportResponse } from './transport.ts';
import type * as Wire from './types.ts';
import type { ApiResult, CallInput, ErrorBody, QueryInput } from './call.ts';

export type { ApiResult, CallInput, ErrorBody, QueryInput } from './call.ts';

/** The endpoints of the contract, keyed by the route ids the server's rows carry: the faucet and escrow rows of the route table (generated: src/client/endpoint-table.ts). */
export const ENDPOINTS = endpointsOf('faucet', 'escrow');

export type EndpointId = keyof typeof ENDPOINTS;
export const ENDPOINT_IDS = Object.keys(ENDPOINTS) as EndpointId[];

/** The success body of each endpoint. */
export interface EndpointResponses {
  'faucet.A.register': Wire.FaucetARegisterResponse;
  'faucet.A.claim': Wire.FaucetAClaimResponse;
  'faucet.A.status': Wire.FaucetAStatusResponse;
  'faucet.A.agent': Wire.FaucetAAgentResponse;
  'faucet.B.register': Wire.FaucetBRegisterResponse;
  'faucet.B.claim': Wire.FaucetBClaimResponse;
  'faucet.B.status': Wire.FaucetBStatusResponse;
  'faucet.B.agents': Wire.FaucetBAgentsResponse;
  'faucet.B.referrals': Wire.FaucetBReferralsResponse;
  'escrow.A.create': Wire.EscrowACreateResponse;
  'escrow.A.release': Wire.EscrowAReleaseResponse;
  'escrow.A.dispute': Wire.EscrowDisputeResponse;
  'escrow.A.get': Wire.EscrowADetail;
  'escrow.A.list': Wire.EscrowAListResponse;
  'escrow.B.create': Wire.EscrowBCreateResponse;
  'escrow.B.release': Wire.EscrowBReleaseResponse;
  'escrow.B.refund': Wire.EscrowBRefundResponse;
  'escrow.B.get': Wire.EscrowBDetail;
  'escrow.B.list': Wire.EscrowBListResponse;
  'escrow.B.dispute': Wire.EscrowDisputeResponse;
}

/** The path of `endpoint` with its parameters URL-encoded (replay and reports use it too). */
export function endpointPath(endpoint: EndpointId, params: Readonly<Record<string, string>> = {}): string {
  return fillPath(ENDPOINTS[endpoint].path, endpoint, params);
}

/** The template with its `:name` parameters filled; a template without any is its own path (no regex per call). */
function fillPath(template: string, endpoint: string, params: Readonly<Record<string, string>> = {}): string {
  if (!template.includes(':')) return template;
  return template.replace(/:([A-Za-z_]+)/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${endpoint}: path parameter '${name}' is missing`);
    return encodeURIComponent(value);
  });
}

function queryStrings(query: QueryInput | undefined): Record<string, string> | undefined {
  if (query === undefined) return undefined;
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(query)) if (value !== undefined) result[name] = String(value);
  return result;
}

function toResult<T>(response: TransportResponse): ApiResult<T> {
  const { status, headers, body } = response;
  if (status >= 200 && status < 300) return { ok: true, status, headers, body: body as T };
  return { ok: false, status, headers, body: errorBody(body) };
}

function errorBody(body: unknown): ErrorBody {
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    const fields = body as Record<string, unknown>;
    if (typeof fields['error'] === 'string' && typeof fields['code'] === 'string') return fields as ErrorBody;
  }
  return { error: 'error answer without {error, code}', code: 'UNKNOWN', body };
}

export interface ClientOptions {
  readonly apiKey?: string;
  /** Sent as X-Forwarded-For: the originating IP the per-IP limits see. */
  readonly ip?: string;
}

const id = (value: string): Readonly<Record<string, string>> => ({ id: value });

/** The grouped methods, one group per service and addressing style. */
export interface FaucetAMethods {
  register(body: Wire.FaucetARegisterRequest): Promise<ApiResult<Wire.FaucetARegisterResponse>>;
  claim(): Promise<ApiResult<Wire.FaucetAClaimResponse>>;
  status(): Promise<ApiResult<Wire.FaucetAStatusResponse>>;
  agent(agentId: string): Promise<ApiResult<Wire.FaucetAAgentResponse>>;
}

export interface FaucetBMethods {
  register(body: Wire.FaucetBRegisterRequest): Promise<ApiResult<Wire.FaucetBRegisterResponse>>;
  claim(body?: Wire.FaucetBClaimRequest): Promise<ApiResult<Wire.FaucetBClaimResponse>>;
  status(): Promise<ApiResult<Wire.FaucetBStatusResponse>>;
  agents(query?: Wire.FaucetBAgentsQuery): Promise<ApiResult<Wire.FaucetBAgentsResponse>>;
  referrals(): Promise<ApiResult<Wire.FaucetBReferralsResponse>>;
}

export interface EscrowAMethods {
  create(body: Wire.EscrowACreateRequest): Promise<ApiResult<Wire.EscrowACreateResponse>>;
  release(body: Wire.EscrowAReleaseRequest): Promise<ApiResult<Wire.EscrowAReleaseResponse>>;
  dispute(body: Wire.EscrowADisputeRequest): Promise<ApiResult<Wire.EscrowDisputeResponse>>;
  get(escrowId: string): Promise<ApiResult<Wire.EscrowADetail>>;
  list(query?: Wire.EscrowListQuery): Promise<ApiResult<Wire.EscrowAListResponse>>;
}

export interface EscrowBMethods {
  create(body: Wire.EscrowBCreateRequest): Promise<ApiResult<Wire.EscrowBCreateResponse>>;
  release(escrowId: string): Promise<ApiResult<Wire.EscrowBReleaseResponse>>;
  refund(escrowId: string): Promise<ApiResult<Wire.EscrowBRefundResponse>>;
  get(escrowId: string): Promise<ApiResult<Wire.EscrowBDetail>>;
  list(query?: Wire.EscrowListQuery): Promise<ApiResult<Wire.EscrowBListResponse>>;
  dispute(escrowId: string, body: Wire.EscrowBDisputeRequest): Promise<ApiResult<Wire.EscrowDisputeResponse>>;
}

/**
 * Why the groups are built on first use: the simulator makes a client for each agent's wake, and
 * a wake uses one or two groups; building all eight made the client a sweep's largest allocation.
 */
export class AfpClient {
  private readonly transport: Transport;
  private readonly options: ClientOptions;
  private readonly headers: Readonly<Record<string, string>>;
  private faucetAMethods: FaucetAMethods | undefined;
  private faucetBMethods: FaucetBMethods | undefined;
  private escrowAMethods: EscrowAMethods | undefined;
  private escrowBMethods: EscrowBMethods | undefined;
  private casinoClient: CasinoClient | undefined;
  private domainsClient: DomainsClient | undefined;
  private walletClient: WalletClient | undefined;
  private tradingClient: TradingClient | undefined;

  constructor(transport: Transport, options: ClientOptions = {}) {
    this.transport = transport;
    this.options = options;
    const headers: Record<string, string> = {};
    if (options.apiKey !== undefined) headers['authorization'] = `Bearer ${options.apiKey}`;
    if (options.ip !== undefined) headers['x-forwarded-for'] = options.ip;
    this.headers = headers;
  }

  get faucetA(): FaucetAMethods {
    return (this.faucetAMethods ??= {
      register: (body) => this.call('faucet.A.register', { body }),
      claim: () => this.call('faucet.A.claim', {}),
      status: () => this.call('faucet.A.status', {}),
      agent: (agentId) => this.call('faucet.A.agent', { params: id(agentId) }),
    });
  }

  get faucetB(): FaucetBMethods {
    return (this.faucetBMethods ??= {
      register: (body) => this.call('faucet.B.register', { body }),
      claim: (body) => this.call('faucet.B.claim', { body }),
      status: () => this.call('faucet.B.status', {}),
      agents: (query) => this.call('faucet.B.agents', { query: { ...query } }),
      referrals: () => this.call('faucet.B.referrals', {}),
    });
  }

  get escrowA(): EscrowAMethods {
    return (this.escrowAMethods ??= {
      create: (body) => this.call('escrow.A.create', { body }),
      release: (body) => this.call('escrow.A.release', { body }),
      dispute: (body) => this.call('escrow.A.dispute', { body }),
      get: (escrowId) => this.call('escrow.A.get', { params: id(escrowId) }),
      list: (query) => this.call('escrow.A.list', { query: { ...query } }),
    });
  }

  get escrowB(): EscrowBMethods {
    return (this.escrowBMethods ??= {
      create: (body) => this.call('escrow.B.create', { body }),
      release: (escrowId) => this.call('escrow.B.release', { params: id(escrowId) }),
      refund: (escrowId) => this.call('escrow.B.refund', { params: id(escrowId) }),
      get: (escrowId) => this.call('escrow.B.get', { params: id(escrowId) }),
      list: (query) => this.call('escrow.B.list', { query: { ...query } }),
      dispute: (escrowId, body) => this.call('escrow.B.dispute', { params: id(escrowId), body }),
    });
  }

  /** The casino's rows, all three styles (casino-client.ts). */
  get casino(): CasinoClient {
    return (this.casinoClient ??= new CasinoClient(async (endpoint, input) =>
      toResult<CasinoBody>(await this.transport(this.casinoRequest(endpoint, input))),
    ));
  }

  /** The domains rows, styles A and B (domains-client.ts). */
  get domains(): DomainsClient {
    return (this.domainsClient ??= new DomainsClient(async (endpoint, input) =>
      toResult<unknown>(await this.transport(this.domainsRequest(endpoint, input))),
    ));
  }

  /** The wallet rows, primary, A and B (wallet-client.ts). */
  get wallet(): WalletClient {
    return (this.walletClient ??= new WalletClient(async (endpoint, input) =>
      toResult<unknown>(await this.transport(this.walletRequest(endpoint, input))),
    ));
  }

  /** The trading service's rows, styles A and B (trading-client.ts). */
  get trading(): TradingClient {
    return (this.tradingClient ??= new TradingClient(async (endpoint, input) =>
      toResult<TradingBody>(await this.transport(this.tradingRequest(endpoint, input))),
    ));
  }

  get apiKey(): string | undefined {
    return this.options.apiKey;
  }

  /** Same transport, another identity (undefined = no key). */
  withKey(apiKey: string | undefined): AfpClient {
    const { apiKey: _previous, ...rest } = this.options;
    return new AfpClient(this.transport, apiKey === undefined ? rest : { ...rest, apiKey });
  }

  /** Same transport and key, another originating IP (X-Forwarded-For). */
  withIp(ip: string): AfpClient {
    return new AfpClient(this.transport, { ...this.options, ip });
  }

  /** The request `call` would send, for recorders and for senders of slightly altered input. */
  request(endpoint: EndpointId, input: CallInput): TransportRequest {
    return this.requestFor(ENDPOINTS[endpoint], endpoint, input);
  }

  /** The request of a casino endpoint (CASINO_ENDPOINTS), as `request` builds one for the others. */
  casinoRequest(endpoint: CasinoEndpointId, input: CallInput): TransportRequest {
    return this.requestFor(CASINO_ENDPOINTS[endpoint], endpoint, input);
  }

  /** The request of a domains endpoint (DOMAINS_ENDPOINTS). */
  domainsRequest(endpoint: DomainsEndpointId, input: CallInput): TransportRequest {
    return this.requestFor(DOMAINS_ENDPOINTS[endpoint], endpoint, input);
  }

  /** The request of a wallet endpoint (WALLET_ENDPOINTS). */
  walletRequest(endpoint: WalletEndpointId, input: CallInput): TransportRequest {
    return this.requestFor(WALLET_ENDPOINTS[endpoint], endpoint, input);
  }

  /** The request of a trading endpoint (TRADING_ENDPOINTS). */
  tradingRequest(endpoint: TradingEndpointId, input: CallInput): TransportRequest {
    return this.requestFor(TRADING_ENDPOINTS[endpoint], endpoint, input);
  }

  private requestFor(row: RouteEndpointRow, endpoint: string, input: CallInput): TransportRequest {
    const query = queryStrings(input.query);
    const path = fillPath(row.path, endpoint, input.params);
    return {
      mount: row.mount,
      method: row.method,
      path,
      query: query === undefined || Object.keys(query).length === 0 ? undefined : query,
      headers: this.headers,
      body: input.body,
    };
  }

  /** Any endpoint of the table by its id. */
  async call<E extends EndpointId>(endpoint: E, input: CallInput): Promise<ApiResult<EndpointResponses[E]>> {
    return toResult<EndpointResponses[E]>(await this.transport(this.request(endpoint, input)));
  }

  /**
   * Sends a request as given, for bad input and replay: its fields unchanged. The client's
   * identity headers are added under the request's own (a key-less client sends the request's
   * headers as they are).
   */
  raw(request: TransportRequest): Promise<TransportResponse> {
    if (Object.keys(this.headers).length === 0) return this.transport(request);
    return this.transport({ ...request, headers: { ...this.headers, ...request.headers } });
  }
}
