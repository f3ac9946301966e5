/**
 * The deployed escrow (spec/DEPLOYED.md §4, root paths on its own address, the casino's key and
 * balance) over afp's EscrowService and its rules (the amount is held at creation; release pays
 * amount − the 1% fee, the referrer 15% of the fee):
 *   POST /escrow/create { amount_usd, description, counterparty_agent_id, timeout_hours?,
 *        referral_code? } → 201 (400 `invalid_amount`, `invalid_counterparty`, `self_escrow`;
 *        404 `counterparty_not_found`; 402 `insufficient_balance`);
 *   POST /escrow/complete/:id (the counterparty) → `completed` (afp keeps the mark; no money moves);
 *   POST /escrow/release/:id (the creator; funded or completed) → `released`;
 *   POST /escrow/dispute/:id { reason? } (a party) → `disputed`;
 *   GET  /escrow/:id (no key needed) → the escrow.
 * Wrong party 403 `forbidden`, wrong status 409 `invalid_status`. Statuses: afp's locked reads
 * `funded` (`completed` once marked), expired reads `refunded` (afp refunds the whole amount at
 * expiry, where the deployment keeps the commission); `timeout_hours` = clamp(floor(x ?? 24), 1, 720).
 */
import { isFailure, succeed, type Failure, type JsonObject } from '../../../core/errors.ts';
import type { EscrowRecord } from '../../../services/escrow/escrow-record.ts';
import type { EscrowService } from '../../../services/escrow/escrow.ts';
import type { Platform } from '../../../platform/platform.ts';
import { deployedFailure, renamed } from '../../deployed/deployed-errors.ts';
import { isoTime, moneyA } from '../../render.ts';
import type { Route, RouteContext, RouteInput } from '../../route.ts';
import { deployedRoute } from './deployed-row.ts';
import { optionalString, requiredAmount } from '../../validate.ts';
import { casinoCaller } from '../casino/casino-games.ts';

const HOUR_MS = 3_600_000;

function fieldsOf(body: unknown): Record<string, unknown> {
  return (typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
}

function statusOf(platform: Platform, escrow: EscrowRecord): string {
  if (escrow.status === 'locked') return platform.escrow.completedAtMs(escrow.id) === null ? 'funded' : 'completed';
  return escrow.status === 'expired' ? 'refunded' : escrow.status;
}

function escrowView(platform: Platform, escrow: EscrowRecord): JsonObject {
  return {
    escrow_id: escrow.id,
    amount_usd: moneyA(escrow.amountMicro),
    commission_usd: moneyA(escrow.feeMicro),
    net_to_counterparty: moneyA(escrow.netMicro),
    description: escrow.description,
    creator_id: escrow.senderId,
    counterparty_id: escrow.receiverId,
    status: statusOf(platform, escrow),
    timeout_hours: Math.round((escrow.expiresAtMs - escrow.createdAtMs) / HOUR_MS),
    auto_release_at: isoTime(escrow.expiresAtMs),
  };
}

function escrowRefusal(failure: Failure): Failure {
  if (failure.extra?.['error'] !== undefined) return failure;
  if (failure.code === 'INSUFFICIENT_BALANCE') return renamed(failure, 'insufficient_balance', 402);
  if (failure.code === 'CONFLICT') return renamed(failure, 'invalid_status', 409);
  if (failure.code === 'FORBIDDEN') return renamed(failure, 'forbidden', 403);
  if (failure.code === 'NOT_FOUND')
    return renamed(failure, failure.message.startsWith('receiver') ? 'counterparty_not_found' : 'not_found', 404);
  if (failure.message.includes('other than the sender')) return renamed(failure, 'self_escrow', 400);
  if (failure.message.startsWith('amount')) return renamed(failure, 'invalid_amount', 400);
  return renamed(failure, 'invalid_request', 400);
}

interface CreateCommand {
  readonly amountMicro: bigint;
  readonly description: string;
  readonly counterparty: string;
  readonly timeoutHours: number;
  readonly referralCode: string | null;
}

function parseCreate(input: RouteInput): CreateCommand | Failure {
  const fields = fieldsOf(input.body);
  const amountMicro = requiredAmount(fields['amount_usd'], 'amount_usd', 'number');
  if (isFailure(amountMicro)) return deployedFailure(400, 'invalid_amount', `${amountMicro.message} (minimum 0.10)`);
  const description = fields['description'];
  if (typeof description !== 'string' || description.trim().length < 3 || description.length > 1000)
    return deployedFailure(400, 'invalid_description', 'description must be 3 to 1000 characters');
  const counterparty = fields['counterparty_agent_id'];
  if (typeof counterparty !== 'string' || counterparty.trim() === '' || counterparty.length > 128)
    return deployedFailure(400, 'invalid_counterparty', 'counterparty_agent_id is required');
  const hours = fields['timeout_hours'];
  if (hours !== undefined && hours !== null && (typeof hours !== 'number' || !Number.isFinite(hours)))
    return deployedFailure(400, 'invalid_request', 'timeout_hours must be a number');
  const timeoutHours = Math.min(720, Math.max(1, Math.floor(typeof hours === 'number' ? hours : 24)));
  const referralCode = optionalString(fields['referral_code'], 'referral_code', 128);
  if (isFailure(referralCode)) return deployedFailure(400, 'invalid_request', referralCode.message);
  return { amountMicro, description, counterparty, timeoutHours, referralCode: referralCode ?? null };
}

const create = deployedRoute<CreateCommand, EscrowRecord>({
  id: 'escrow.deployed.create',
  service: 'escrow',
  style: 'deployed',
  auth: 'bearer',
  summary:
    'Fund an escrow for a counterparty ({ amount_usd, description, counterparty_agent_id, timeout_hours?, referral_code? }).',
  parse: parseCreate,
  run: (context, command) => {
    const senderId = casinoCaller(context);
    // The deployment ignores a referral code it does not know: afp's escrow would refuse it.
    const referrer =
      command.referralCode === null ? null : (context.platform.agents.resolve(command.referralCode)?.id ?? null);
    const created = context.platform.escrow.create(
      {
        senderId,
        receiver: command.counterparty,
        amountMicro: command.amountMicro,
        description: command.description,
        expiresInSeconds: command.timeoutHours * 3600,
        referrer: referrer === senderId ? null : referrer,
        conditions: null,
      },
      context.nowMs,
    );
    return created.ok ? created : escrowRefusal(created);
  },
  successStatus: 201,
  render: (escrow, context) => ({
    ...escrowView(context.platform, escrow),
    next_steps: [
      `The counterparty marks the work done: POST /escrow/complete/${escrow.id}`,
      `You release the funds: POST /escrow/release/${escrow.id}`,
    ],
  }),
});

type Action = 'complete' | 'release' | 'dispute';

/** The release that runs: the service's, or through /mcp under `mcp-release-credits-nobody` the deployment's MCP tool's. */
function releaseOf(context: RouteContext): EscrowService['release'] {
  const escrow = context.platform.escrow;
  return context.door === 'mcp' && context.platform.context.defects.has('mcp-release-credits-nobody')
    ? (command, nowMs) => escrow.releaseCreditingNobody(command, nowMs)
    : (command, nowMs) => escrow.release(command, nowMs);
}

function actionRow(
  action: Action,
  summary: string,
  render: (escrow: EscrowRecord, context: RouteContext, reason: string) => JsonObject,
): Route {
  return deployedRoute<{ escrowId: string; reason: string }, EscrowRecord>({
    id: `escrow.deployed.${action}`,
    service: 'escrow',
    style: 'deployed',
    auth: 'bearer',
    summary,
    parse: (input) => {
      const reason = optionalString(fieldsOf(input.body)['reason'], 'reason', 1000);
      if (isFailure(reason)) return deployedFailure(400, 'invalid_request', reason.message);
      return { escrowId: input.params['id'] ?? '', reason: reason ?? 'No reason given' };
    },
    run: (context, command) => {
      const callerId = casinoCaller(context);
      const escrow = context.platform.escrow;
      const outcome =
        action === 'complete'
          ? escrow.markComplete({ escrowId: command.escrowId, callerId }, context.nowMs)
          : action === 'release'
            ? releaseOf(context)({ escrowId: command.escrowId, callerId }, context.nowMs)
            : escrow.dispute(
                { escrowId: command.escrowId, callerId, reason: command.reason, evidence: null },
                context.nowMs,
              );
      return outcome.ok ? outcome : escrowRefusal(outcome);
    },
    successStatus: 200,
    render: (escrow, context) => render(escrow, context, escrow.dispute?.reason ?? ''),
  });
}

const complete = actionRow('complete', 'Mark the work done (the counterparty).', (escrow, context) => ({
  escrow_id: escrow.id,
  status: 'completed',
  completed_at: isoTime(context.platform.escrow.completedAtMs(escrow.id) ?? context.nowMs),
  message: 'Marked complete: the creator can now release the funds.',
}));

const release = actionRow('release', 'Release the funds to the counterparty (the creator).', (escrow, context) => {
  const shareBps = context.platform.config.escrow.referralShareBps;
  const referralMicro = escrow.referrerId === null ? 0n : (escrow.feeMicro * shareBps) / 10_000n;
  return {
    escrow_id: escrow.id,
    status: 'released',
    amount_released: moneyA(escrow.netMicro),
    commission: moneyA(escrow.feeMicro),
    referral_commission: moneyA(referralMicro),
    counterparty_id: escrow.receiverId,
    message: `Released ${moneyA(escrow.netMicro)} USDC to ${escrow.receiverId}.`,
  };
});

const dispute = actionRow('dispute', 'Dispute the escrow ({ reason? }; a party).', (escrow, _context, reason) => ({
  escrow_id: escrow.id,
  status: 'disputed',
  reason,
  message: 'The escrow is frozen while the dispute is reviewed.',
  contact: 'https://escrow.purpleflea.com',
}));

const get = deployedRoute<string, EscrowRecord>({
  id: 'escrow.deployed.get',
  service: 'escrow',
  style: 'deployed',
  auth: 'optional',
  summary: 'One escrow (no key needed).',
  parse: (input) => input.params['id'] ?? '',
  run: (context, escrowId) => {
    const escrow = context.platform.escrow.find(escrowId);
    return escrow === undefined
      ? deployedFailure(404, 'not_found', `Escrow ${escrowId.slice(0, 64)} not found`)
      : succeed(escrow);
  },
  successStatus: 200,
  render: (escrow, context) => {
    const completedAtMs = context.platform.escrow.completedAtMs(escrow.id);
    return {
      ...escrowView(context.platform, escrow),
      created_at: isoTime(escrow.createdAtMs),
      completed_at: completedAtMs === null ? null : isoTime(completedAtMs),
      released_at: escrow.status === 'released' && escrow.settledAtMs !== null ? isoTime(escrow.settledAtMs) : null,
      disputed_at: escrow.dispute === null ? null : isoTime(escrow.dispute.openedAtMs),
    };
  },
});

export const deployedEscrowRoutes: readonly Route[] = [create, complete, release, dispute, get];
