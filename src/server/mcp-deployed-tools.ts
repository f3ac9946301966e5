/**
 * The MCP tools of `afp serve --dialect deployed`'s faucet and escrow `/mcp` (spec/DEPLOYED.md §3,
 * §4): the deployment's tool names and arguments, each answered by the deployed route row of the
 * same operation, so its checks, refusals and money are the HTTP row's own (mcp-tools.ts explains
 * the mechanism). The key is an argument, `casino_api_key`, not a header: it becomes the Bearer key
 * of the dispatched request and is not passed on.
 * Where the deployment's MCP differs from its HTTP rows (claim_faucet skips the per-IP cooldown;
 * release_escrow credits nobody), the stand-in keeps the HTTP rule; the deployment's behaviour is
 * the defects `mcp-claim-skips-ip-cooldown` and `mcp-release-credits-nobody`, read by the rows.
 * Objects are loose, as the deployment's SDK schemas are (an unknown argument is dropped).
 * Non-goals: `escrow_stats` (the stand-in serves no escrow statistics; GET /mcp lists what is served).
 */
import * as z from 'zod';
import type { McpToolRow } from './mcp-tools.ts';

const KEY_ARGUMENT = 'casino_api_key';
const casinoKey = z.string().describe('Your casino API key (sk_live_...)');
const escrowId = z.string().min(1).describe('The escrow id (esc_...)');

/** A tool whose arguments are the key and the escrow its route's `:id` names. */
function escrowAction(name: string, routeId: string, extra: z.ZodRawShape = {}): McpToolRow {
  return {
    name,
    service: 'escrow',
    routeId,
    input: z.object({ [KEY_ARGUMENT]: casinoKey, escrow_id: escrowId, ...extra }),
    pathParams: { id: 'escrow_id' },
    keyArgument: KEY_ARGUMENT,
  };
}

export const DEPLOYED_MCP_TOOLS: readonly McpToolRow[] = [
  {
    name: 'claim_faucet',
    service: 'faucet',
    routeId: 'faucet.deployed.claim',
    input: z.object({
      agent_casino_id: z.string().describe('Your casino agent id (ag_...)'),
      referral_code: z.string().optional().describe('Optional referral code'),
    }),
  },
  {
    name: 'create_escrow',
    service: 'escrow',
    routeId: 'escrow.deployed.create',
    input: z.object({
      [KEY_ARGUMENT]: casinoKey,
      amount_usd: z.number().describe('USD amount, at least 0.10'),
      description: z.string().describe('What the escrow pays for (at least 3 characters)'),
      counterparty_agent_id: z.string().describe("The counterparty's casino agent id"),
      timeout_hours: z.number().optional().describe('Hours until auto-release, 1..720 (default 24)'),
      referral_code: z.string().optional().describe('Optional referral code'),
    }),
    keyArgument: KEY_ARGUMENT,
  },
  {
    name: 'get_escrow',
    service: 'escrow',
    routeId: 'escrow.deployed.get',
    input: z.object({ escrow_id: escrowId }),
    pathParams: { id: 'escrow_id' },
  },
  escrowAction('mark_complete', 'escrow.deployed.complete'),
  escrowAction('release_escrow', 'escrow.deployed.release'),
  escrowAction('dispute_escrow', 'escrow.deployed.dispute', {
    reason: z.string().min(10).describe('Why the escrow is disputed (at least 10 characters)'),
  }),
];
