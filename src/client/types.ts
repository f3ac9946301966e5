/**
 * Wire shapes of faucet and escrow, as the contract (/tmp/briefs/contract.md, docs) names them:
 * style A renders money as JSON numbers, style B as decimal strings; times are ISO 8601 UTC;
 * absent optional values are JSON null. Request types are the well-formed requests; bad input is
 * sent through `AfpClient.raw`. Non-goals: runtime validation (conformance checks do that).
 */
import type { EscrowRole, EscrowStatus } from '../services/escrow/escrow-record.ts';

/** The escrow's statuses and roles on the wire are the service's own (src/services/escrow/escrow-record.ts). */
export type { EscrowRole, EscrowStatus } from '../services/escrow/escrow-record.ts';

/** Style B accepts a JSON number or a decimal string; style A numbers only. */
export type AmountB = number | string;

// ---- faucet, style A ----
export interface FaucetARegisterRequest {
  agent_id: string;
  referrer?: string;
}
export interface FaucetARegisterResponse {
  agent_id: string;
  agent_address: string;
  api_key: string;
  referral_code: string;
  created_at: string;
}
export interface FaucetAClaimResponse {
  amount_usdc: number;
  balance_usdc: number;
}
export interface FaucetAStatusResponse {
  eligible: boolean;
  balance_usdc: number;
}
export interface FaucetAAgentResponse {
  agent_id: string;
  agent_address: string;
  balance_usdc: number;
  tier: string;
  referrer: string | null;
  referral_code: string;
  created_at: string;
}

// ---- faucet, style B ----
export interface FaucetBRegisterRequest {
  agent_id: string;
  referrer?: string;
  metadata?: Record<string, unknown>;
}
export interface FaucetBRegisterResponse {
  agent_id: string;
  agent_address: string;
  api_key: string;
  referral_code: string;
  amount: string;
  currency: 'USDC';
  balance: string;
  next_claim: string;
}
export interface FaucetBClaimRequest {
  agent_id?: string;
}
export interface FaucetBClaimResponse {
  amount: string;
  balance: string;
  next_claim: string;
}
export interface FaucetBStatusResponse {
  agent_id: string;
  can_claim: boolean;
  next_claim: string | null;
  seconds_until_next_claim: number;
  balance: string;
  pool_balance: string;
}
export interface FaucetBAgentsQuery {
  limit?: number;
}
export interface FaucetBAgentRow {
  agent_id: string;
  agent_address: string;
  framework: string | null;
  claims: number;
  total_claimed: string;
  created_at: string;
}
export interface FaucetBAgentsResponse {
  agents: FaucetBAgentRow[];
  total_agents: number;
  total_claimed: string;
  frameworks: Record<string, number>;
}
export interface FaucetBReferralsResponse {
  referral_code: string;
  referred_count: number;
  referred_agents: { agent_id: string; registered_at: string }[];
  fees_earned: string;
  paid_out: string;
  pending_payouts: string;
  share_pct: number;
  withdrawn: string;
  available: string;
  by_level: { level: number; referred_agents: number; earned: string }[];
}

// ---- escrow, both styles ----
export interface EscrowListQuery {
  role?: EscrowRole;
  status?: EscrowStatus;
  limit?: number;
}
export interface DisputeInfo {
  reason: string;
  evidence: string | null;
  opened_by: string;
  opened_at: string;
  window_ends_at: string;
  outcome: string | null;
}
export interface EscrowDisputeResponse {
  escrow_id: string;
  status: 'disputed';
  reason: string;
  evidence: string | null;
  window_ends_at: string;
}

// ---- escrow, style A ----
export interface EscrowACreateRequest {
  buyer: string;
  seller: string;
  amount: number;
  currency?: string;
  memo?: string;
}
export interface EscrowACreateResponse {
  escrow_id: string;
  status: 'locked';
  amount: number;
  fee: number;
  net: number;
  expires_at: string;
}
export interface EscrowAReleaseRequest {
  escrow_id: string;
}
export interface EscrowAReleaseResponse {
  escrow_id: string;
  status: 'released';
  released_amount: number;
  seller: string;
  fee: number;
  tx_hash: string;
}
export interface EscrowADisputeRequest {
  escrow_id: string;
  reason: string;
  evidence?: string;
}
/** The fields an escrow's detail has in both styles, under the same names. */
export interface EscrowDetailCommon {
  conditions: Record<string, unknown> | null;
  referrer: string | null;
  created_at: string;
  expires_at: string;
  settled_at: string | null;
  tx_hash: string | null;
  dispute: DisputeInfo | null;
}
export interface EscrowADetail extends EscrowDetailCommon {
  escrow_id: string;
  status: EscrowStatus;
  buyer: string;
  seller: string;
  amount: number;
  fee: number;
  net: number;
  memo: string | null;
  currency: 'USDC';
}
export interface EscrowAListResponse {
  escrows: EscrowADetail[];
  count: number;
}

// ---- escrow, style B ----
export interface EscrowBCreateRequest {
  amount: AmountB;
  receiver: string;
  description?: string;
  expires_in?: number;
  referrer?: string;
  conditions?: Record<string, unknown>;
}
export interface EscrowBCreateResponse {
  escrow_id: string;
  status: 'locked';
  amount: string;
  fee: string;
  net: string;
  receiver: string;
  expires_at: string;
}
export interface EscrowBReleaseResponse {
  escrow_id: string;
  status: 'released';
  tx_hash: string;
  net: string;
  fee: string;
}
export interface EscrowBRefundResponse {
  escrow_id: string;
  status: 'refunded';
  amount: string;
  tx_hash: string;
}
export interface EscrowBDisputeRequest {
  reason: string;
  evidence?: string;
}
export interface EscrowBDetail extends EscrowDetailCommon {
  escrow_id: string;
  status: EscrowStatus;
  sender: string;
  receiver: string;
  amount: string;
  fee: string;
  net: string;
  description: string | null;
}
export interface EscrowBListResponse {
  escrows: EscrowBDetail[];
  count: number;
}
