/**
 * The success body of every row of the route table, as zod definitions keyed by row id, for the
 * OpenAPI documents (src/http/openapi.ts). The rows render their bodies in code and declare no
 * types, so these are written once per response shape (shared where rows answer the same shape:
 * `named` gives the shape its components name). `_info` is added to each by `withInfo`, as the
 * dispatcher adds it to every JSON object it answers.
 * Objects are strict, so a field a row adds without documenting it fails
 * test/http/openapi-responses.test.ts, which checks every success body of a full tour of the
 * route table against the documents. Where a body is open by design (a game's `result`, the
 * Kelly limits per variant) the schema says so with a record.
 */
import * as z from 'zod';
import { instant, named, withInfo, usdcNumber as usdc, usdcString as money } from './openapi-fields.ts';
import { CASINO_RESPONSES } from './openapi-responses-casino.ts';
import { DOMAINS_RESPONSES } from './openapi-domains.ts';
import { WALLET_RESPONSES } from './openapi-wallet.ts';
import { TRADING_RESPONSES } from './openapi-trading.ts';

const nullable = <T extends z.ZodType>(schema: T): z.ZodNullable<T> => schema.nullable();
const address = (): z.ZodString => z.string().regex(/^0x[0-9a-f]{40}$/);
const hash = (): z.ZodString => z.string().regex(/^(?:0x)?[0-9a-f]{64}$/);
const count = (): z.ZodInt => z.int().min(0);

// Faucet.
const registrationA = {
  agent_id: z.string(),
  agent_address: address(),
  api_key: z.string().describe('Shown once'),
  referral_code: z.string(),
};
const FAUCET: Readonly<Record<string, z.ZodType>> = {
  'faucet.A.register': withInfo({ ...registrationA, created_at: instant() }),
  'faucet.A.claim': withInfo({ amount_usdc: usdc(), balance_usdc: usdc() }),
  'faucet.A.status': withInfo({ eligible: z.boolean(), balance_usdc: usdc() }),
  'faucet.A.agent': withInfo({
    agent_id: z.string(),
    agent_address: address(),
    balance_usdc: usdc(),
    tier: z.enum(['free', 'pro', 'enterprise']),
    referrer: nullable(z.string()),
    referral_code: z.string(),
    created_at: instant(),
  }),
  'faucet.B.register': withInfo({
    ...registrationA,
    amount: money(),
    currency: z.literal('USDC'),
    balance: money(),
    next_claim: instant(),
  }),
  'faucet.B.claim': withInfo({ amount: money(), balance: money(), next_claim: instant() }),
  'faucet.B.status': withInfo({
    agent_id: z.string(),
    can_claim: z.boolean(),
    next_claim: nullable(instant()),
    seconds_until_next_claim: count(),
    balance: money(),
    pool_balance: money(),
  }),
  'faucet.B.agents': withInfo({
    agents: z.array(
      z.strictObject({
        agent_id: z.string(),
        agent_address: address(),
        framework: z.string(),
        claims: count(),
        total_claimed: money(),
        created_at: instant(),
      }),
    ),
    total_agents: count(),
    total_claimed: money(),
    frameworks: z.record(z.string(), count()).describe('Agents per framework'),
  }),
  'faucet.B.referrals': withInfo({
    referral_code: z.string(),
    referred_count: count(),
    referred_agents: z.array(z.strictObject({ agent_id: z.string(), registered_at: instant() })),
    fees_earned: money(),
    paid_out: money(),
    pending_payouts: money(),
    share_pct: z.number(),
    withdrawn: money(),
    available: money(),
    by_level: z.array(z.strictObject({ level: z.int().min(1), referred_agents: count(), earned: money() })),
  }),
};

// Escrow.
const status = z.enum(['locked', 'released', 'refunded', 'expired', 'disputed']);
const dispute = named(
  'EscrowDispute',
  z.strictObject({
    reason: z.string(),
    evidence: nullable(z.string()),
    opened_by: z.string(),
    opened_at: instant(),
    window_ends_at: instant(),
    outcome: nullable(z.string()),
  }),
);
const escrowCommon = {
  conditions: nullable(z.record(z.string(), z.unknown())),
  referrer: nullable(z.string()),
  created_at: instant(),
  expires_at: instant(),
  settled_at: nullable(instant()),
  tx_hash: nullable(hash()),
  dispute: nullable(dispute),
};
const escrowA = {
  escrow_id: z.string(),
  status,
  buyer: z.string(),
  seller: z.string(),
  currency: z.literal('USDC'),
  memo: nullable(z.string()),
  amount: usdc(),
  fee: usdc(),
  net: usdc(),
  ...escrowCommon,
};
const escrowB = {
  escrow_id: z.string(),
  status,
  sender: z.string(),
  receiver: z.string(),
  description: nullable(z.string()),
  amount: money(),
  fee: money(),
  net: money(),
  ...escrowCommon,
};
const escrowAItem = named('EscrowA', z.strictObject(escrowA));
const escrowBItem = named('EscrowB', z.strictObject(escrowB));
const disputed = {
  escrow_id: z.string(),
  status: z.literal('disputed'),
  reason: z.string(),
  evidence: nullable(z.string()),
  window_ends_at: instant(),
};
const ESCROW: Readonly<Record<string, z.ZodType>> = {
  'escrow.A.create': withInfo({
    escrow_id: z.string(),
    status: z.literal('locked'),
    amount: usdc(),
    fee: usdc(),
    net: usdc(),
    expires_at: instant(),
  }),
  'escrow.A.release': withInfo({
    escrow_id: z.string(),
    status: z.literal('released'),
    released_amount: usdc(),
    seller: z.string(),
    fee: usdc(),
    tx_hash: hash(),
  }),
  'escrow.A.dispute': withInfo(disputed),
  'escrow.A.get': withInfo(escrowA),
  'escrow.A.list': withInfo({ escrows: z.array(escrowAItem), count: count() }),
  'escrow.B.create': withInfo({
    escrow_id: z.string(),
    status: z.literal('locked'),
    amount: money(),
    fee: money(),
    net: money(),
    receiver: z.string(),
    expires_at: instant(),
  }),
  'escrow.B.release': withInfo({
    escrow_id: z.string(),
    status: z.literal('released'),
    tx_hash: hash(),
    net: money(),
    fee: money(),
  }),
  'escrow.B.refund': withInfo({
    escrow_id: z.string(),
    status: z.literal('refunded'),
    amount: money(),
    tx_hash: hash(),
  }),
  'escrow.B.dispute': withInfo(disputed),
  'escrow.B.get': withInfo(escrowB),
  'escrow.B.list': withInfo({ escrows: z.array(escrowBItem), count: count() }),
};

export const RESPONSES: Readonly<Record<string, z.ZodType>> = {
  ...FAUCET,
  ...ESCROW,
  ...CASINO_RESPONSES,
  ...TRADING_RESPONSES,
  ...DOMAINS_RESPONSES,
  ...WALLET_RESPONSES,
};
