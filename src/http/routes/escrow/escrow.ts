/**
 * Escrow route rows, styles A (mount 'escrow', /api/v1/escrow/...) and B (mount 'api', /escrow...),
 * over the one EscrowService. The wire shapes are docs' contract (escrow section): A renders
 * money as JSON numbers and parties as buyer/seller, B as decimal strings and sender/receiver.
 *
 * Invariants: `parse` validates every field (unknown body fields and query parameters → 400)
 * before anything runs, so bad input changes nothing; `run` passes the authenticated caller to
 * the service; `successStatus` is 201 for the creates, 200 otherwise; `render` builds the exact
 * contract body and copies stored objects (conditions) so an in-process client cannot mutate
 * platform state through a response.
 * Non-goals: domain rules (minimum amount, parties, states) — those live in the service.
 */
import { assert } from '../../../core/assert.ts';
import { fail, isFailure, type Failure, type JsonObject, type JsonValue } from '../../../core/errors.ts';
import type { Micro } from '../../../core/money.ts';
import { isReference } from '../../../core/reference.ts';
import { checkConditions } from '../../../services/escrow/conditions.ts';
import {
  ESCROW_LIMITS,
  ESCROW_ROLES,
  ESCROW_STATUSES,
  type CreateEscrowCommand,
  type EscrowRecord,
  type EscrowRole,
  type EscrowStatus,
} from '../../../services/escrow/escrow-record.ts';
import { isoTime, moneyA, moneyB } from '../../render.ts';
import { jsonCopy } from '../json-copy.ts';
import type { Route, RouteContext, RouteInput } from '../../route.ts';
import { styleAFamily, styleBFamily, type FamilyRowMaker } from '../../route-family.ts';
import {
  emptyBody,
  knownQuery,
  NO_KEYS,
  objectBody,
  optionalInteger,
  optionalString,
  queryEnum,
  queryLimit,
  requiredAmount,
  requiredString,
} from '../../validate.ts';

interface IdCommand {
  readonly escrowId: string;
}

interface DisputeCommand extends IdCommand {
  readonly reason: string;
  readonly evidence: string | null;
}

interface ListCommand {
  readonly role: EscrowRole;
  readonly status: EscrowStatus | null;
  readonly limit: number;
}

interface CreateCommandA {
  readonly buyer: string;
  readonly seller: string;
  readonly amountMicro: Micro;
  readonly memo: string | null;
}

type CreateCommandB = Omit<CreateEscrowCommand, 'senderId'>;

// Allowed body fields and query parameters, shared (an array literal per request would be garbage).
const LIST_QUERY: readonly string[] = ['role', 'status', 'limit'];
const DISPUTE_FIELDS_A: readonly string[] = ['escrow_id', 'reason', 'evidence'];
const DISPUTE_FIELDS_B: readonly string[] = ['reason', 'evidence'];
const CREATE_FIELDS_A: readonly string[] = ['buyer', 'seller', 'amount', 'currency', 'memo'];
const CREATE_FIELDS_B: readonly string[] = [
  'amount',
  'receiver',
  'description',
  'expires_in',
  'referrer',
  'conditions',
];
const RELEASE_FIELDS_A: readonly string[] = ['escrow_id'];

function callerId(context: RouteContext): string {
  assert(context.caller !== null, 'bearer rows run with an authenticated caller');
  return context.caller.id;
}

function escrowId(value: unknown, name: string): string | Failure {
  if (value === undefined || value === null) return fail('BAD_REQUEST', `${name} is required`);
  if (typeof value !== 'string') return fail('BAD_REQUEST', `${name} must be a string`);
  if (!isReference(value))
    return fail('BAD_REQUEST', `${name} must be 1 to 64 characters of A-Z, a-z, 0-9, '_', '.' or '-'`);
  return value;
}

/** A path `:id` with no body and no query (GET detail, B release and refund). */
function parsePathId(input: RouteInput, requireEmptyBody: boolean): IdCommand | Failure {
  const query = knownQuery(input.query, NO_KEYS);
  if (query !== null) return query;
  if (requireEmptyBody) {
    const body = emptyBody(input.body);
    if (body !== null) return body;
  }
  const id = escrowId(input.params['id'], 'escrow id');
  return isFailure(id) ? id : { escrowId: id };
}

function parseList(input: RouteInput, context: RouteContext): ListCommand | Failure {
  const unknown = knownQuery(input.query, LIST_QUERY);
  if (unknown !== null) return unknown;
  const role = queryEnum(input.query, 'role', ESCROW_ROLES, 'all');
  if (isFailure(role)) return role;
  const status =
    input.query['status'] === undefined ? null : queryEnum(input.query, 'status', ESCROW_STATUSES, 'locked');
  if (isFailure(status)) return status;
  const config = context.platform.config.escrow;
  const limit = queryLimit(input.query, config.listLimitDefault, config.listLimitMax);
  if (isFailure(limit)) return limit;
  return { role, status, limit };
}

/** `{ reason, evidence? }`, plus `escrow_id` in style A. */
function parseDispute(body: unknown, idFrom: { readonly param: string } | 'body'): DisputeCommand | Failure {
  const fields = objectBody(body, idFrom === 'body' ? DISPUTE_FIELDS_A : DISPUTE_FIELDS_B);
  if (isFailure(fields)) return fields;
  const id = idFrom === 'body' ? escrowId(fields['escrow_id'], 'escrow_id') : escrowId(idFrom.param, 'escrow id');
  if (isFailure(id)) return id;
  const reason = requiredString(fields['reason'], 'reason', ESCROW_LIMITS.reasonLengthMax);
  if (isFailure(reason)) return reason;
  const evidence = optionalString(fields['evidence'], 'evidence', ESCROW_LIMITS.evidenceLengthMax);
  if (isFailure(evidence)) return evidence;
  return { escrowId: id, reason, evidence: evidence ?? null };
}

function parseCreateA(body: unknown): CreateCommandA | Failure {
  const fields = objectBody(body, CREATE_FIELDS_A);
  if (isFailure(fields)) return fields;
  const buyer = requiredString(fields['buyer'], 'buyer', ESCROW_LIMITS.referenceLengthMax);
  if (isFailure(buyer)) return buyer;
  const seller = requiredString(fields['seller'], 'seller', ESCROW_LIMITS.referenceLengthMax);
  if (isFailure(seller)) return seller;
  const amountMicro = requiredAmount(fields['amount'], 'amount', 'number');
  if (isFailure(amountMicro)) return amountMicro;
  const currency = optionalString(fields['currency'], 'currency', 16);
  if (isFailure(currency)) return currency;
  if (currency !== undefined && currency !== 'USDC') return fail('BAD_REQUEST', 'currency must be USDC');
  const memo = optionalString(fields['memo'], 'memo', ESCROW_LIMITS.descriptionLengthMax);
  if (isFailure(memo)) return memo;
  return { buyer, seller, amountMicro, memo: memo ?? null };
}

function parseCreateB(body: unknown, context: RouteContext): CreateCommandB | Failure {
  const fields = objectBody(body, CREATE_FIELDS_B);
  if (isFailure(fields)) return fields;
  const amountMicro = requiredAmount(fields['amount'], 'amount', 'number-or-decimal-string');
  if (isFailure(amountMicro)) return amountMicro;
  const receiver = requiredString(fields['receiver'], 'receiver', ESCROW_LIMITS.referenceLengthMax);
  if (isFailure(receiver)) return receiver;
  const description = optionalString(fields['description'], 'description', ESCROW_LIMITS.descriptionLengthMax);
  if (isFailure(description)) return description;
  const expiresIn = optionalInteger(
    fields['expires_in'],
    'expires_in',
    1,
    context.platform.config.escrow.maxExpiresInSeconds,
  );
  if (isFailure(expiresIn)) return expiresIn;
  const referrer = optionalString(fields['referrer'], 'referrer', ESCROW_LIMITS.referenceLengthMax);
  if (isFailure(referrer)) return referrer;
  const rawConditions = fields['conditions'];
  const conditions = rawConditions === undefined || rawConditions === null ? null : checkConditions(rawConditions);
  if (conditions !== null && !conditions.ok) return conditions;
  return {
    amountMicro,
    receiver,
    description: description ?? null,
    expiresInSeconds: expiresIn ?? null,
    referrer: referrer ?? null,
    conditions: conditions === null ? null : conditions.value,
  };
}

function renderDispute(escrow: EscrowRecord): JsonValue {
  const dispute = escrow.dispute;
  if (dispute === null) return null;
  return {
    reason: dispute.reason,
    evidence: dispute.evidence,
    opened_by: dispute.openedById,
    opened_at: isoTime(dispute.openedAtMs),
    window_ends_at: isoTime(dispute.windowEndsAtMs),
    outcome: dispute.outcome,
  };
}

/**
 * Details, styles A and B: they share every field from `amount` on, in the same order (detailTail);
 * only the first fields and the money format differ.
 */
export function detailA(escrow: EscrowRecord): JsonObject {
  return {
    escrow_id: escrow.id,
    status: escrow.status,
    buyer: escrow.senderId,
    seller: escrow.receiverId,
    currency: 'USDC',
    memo: escrow.description,
    ...detailTail(escrow, moneyA),
  };
}

export function detailB(escrow: EscrowRecord): JsonObject {
  return {
    escrow_id: escrow.id,
    status: escrow.status,
    sender: escrow.senderId,
    receiver: escrow.receiverId,
    description: escrow.description,
    ...detailTail(escrow, moneyB),
  };
}

/** The fields both styles' details share, from `amount` on, in the same order; `money` is the style's format. */
function detailTail(escrow: EscrowRecord, money: (amountMicro: Micro) => JsonValue): JsonObject {
  return {
    amount: money(escrow.amountMicro),
    fee: money(escrow.feeMicro),
    net: money(escrow.netMicro),
    conditions: conditionsCopy(escrow),
    referrer: escrow.referrerId,
    created_at: isoTime(escrow.createdAtMs),
    expires_at: isoTime(escrow.expiresAtMs),
    settled_at: settledAt(escrow),
    tx_hash: escrow.txHash,
    dispute: renderDispute(escrow),
  };
}

/** A copy, so that an in-process client cannot change stored conditions through a response. */
function conditionsCopy(escrow: EscrowRecord): JsonValue {
  return escrow.conditions === null ? null : jsonCopy(escrow.conditions);
}

function settledAt(escrow: EscrowRecord): JsonValue {
  return escrow.settledAtMs === null ? null : isoTime(escrow.settledAtMs);
}

function disputeBody(escrow: EscrowRecord): JsonObject {
  assert(escrow.dispute !== null, 'a disputed escrow has its dispute');
  return {
    escrow_id: escrow.id,
    status: escrow.status,
    reason: escrow.dispute.reason,
    evidence: escrow.dispute.evidence,
    window_ends_at: isoTime(escrow.dispute.windowEndsAtMs),
  };
}

const rowA = styleAFamily('escrow');
const rowB = styleBFamily('escrow');

/** Opening a dispute, alike in both styles but for where the escrow id comes from. */
function disputeRow(row: FamilyRowMaker, path: string, idFrom: 'body' | 'param'): Route {
  return row<DisputeCommand, EscrowRecord>('dispute', {
    method: 'POST',
    path,
    summary: 'Open a dispute (either party): funds frozen for a 48 h window.',
    parse: (input) => parseDispute(input.body, idFrom === 'body' ? 'body' : { param: input.params['id'] ?? '' }),
    run: (context, command) =>
      context.platform.escrow.dispute({ ...command, callerId: callerId(context) }, context.nowMs),
    render: (escrow) => disputeBody(escrow),
  });
}

/** One escrow and the caller's list, alike in both styles but for their paths and detail shape. */
function readRows(
  row: FamilyRowMaker,
  paths: { readonly get: string; readonly list: string },
  detail: (escrow: EscrowRecord) => JsonObject,
): Route[] {
  const get = row<IdCommand, EscrowRecord>('get', {
    method: 'GET',
    path: paths.get,
    summary: 'One escrow in detail (parties only).',
    parse: (input) => parsePathId(input, false),
    run: (context, command) => context.platform.escrow.get({ ...command, callerId: callerId(context) }),
    render: (escrow) => detail(escrow),
  });
  const list = row<ListCommand, readonly EscrowRecord[]>('list', {
    method: 'GET',
    path: paths.list,
    summary: "The caller's escrows, newest first (query role, status, limit).",
    parse: parseList,
    run: (context, command) => context.platform.escrow.list({ ...command, callerId: callerId(context) }),
    render: (escrows) => ({ escrows: escrows.map(detail), count: escrows.length }),
  });
  return [get, list];
}

/** Style B's POST /escrow/:id/<action>: the sender settles a locked escrow (release or refund). */
function settleRowB(
  action: 'release' | 'refund',
  summary: string,
  render: (escrow: EscrowRecord) => JsonObject,
): Route {
  return rowB<IdCommand, EscrowRecord>(action, {
    method: 'POST',
    path: `/escrow/:id/${action}`,
    summary,
    parse: (input) => parsePathId(input, true),
    run: (context, command) =>
      context.platform.escrow[action]({ ...command, callerId: callerId(context) }, context.nowMs),
    render,
  });
}

const rowsA: readonly Route[] = [
  rowA<CreateCommandA, EscrowRecord>('create', {
    method: 'POST',
    path: '/api/v1/escrow/create',
    summary: 'Lock funds from the buyer (the caller) for the seller; default expiry.',
    parse: (input) => parseCreateA(input.body),
    run: (context, command) => {
      const caller = callerId(context);
      if (context.platform.agents.resolve(command.buyer)?.id !== caller)
        return fail('FORBIDDEN', 'buyer must be the authenticated agent');
      const create = {
        senderId: caller,
        receiver: command.seller,
        amountMicro: command.amountMicro,
        description: command.memo,
        expiresInSeconds: null,
        referrer: null,
        conditions: null,
      };
      return context.platform.escrow.create(create, context.nowMs);
    },
    successStatus: 201,
    render: (escrow) => ({
      escrow_id: escrow.id,
      status: escrow.status,
      amount: moneyA(escrow.amountMicro),
      fee: moneyA(escrow.feeMicro),
      net: moneyA(escrow.netMicro),
      expires_at: isoTime(escrow.expiresAtMs),
    }),
  }),
  rowA<IdCommand, EscrowRecord>('release', {
    method: 'POST',
    path: '/api/v1/escrow/release',
    summary: 'Release an escrow to the seller (buyer only): net to the seller, 1% fee.',
    parse: (input) => {
      const fields = objectBody(input.body, RELEASE_FIELDS_A);
      if (isFailure(fields)) return fields;
      const id = escrowId(fields['escrow_id'], 'escrow_id');
      return isFailure(id) ? id : { escrowId: id };
    },
    run: (context, command) =>
      context.platform.escrow.release({ ...command, callerId: callerId(context) }, context.nowMs),
    render: (escrow) => ({
      escrow_id: escrow.id,
      status: escrow.status,
      released_amount: moneyA(escrow.netMicro),
      seller: escrow.receiverId,
      fee: moneyA(escrow.feeMicro),
      tx_hash: escrow.txHash,
    }),
  }),
  disputeRow(rowA, '/api/v1/escrow/dispute', 'body'),
  ...readRows(rowA, { get: '/api/v1/escrow/:id', list: '/api/v1/escrow/list' }, detailA),
];

const rowsB: readonly Route[] = [
  rowB<CreateCommandB, EscrowRecord>('create', {
    method: 'POST',
    path: '/escrow',
    limits: { serviceRowB: true, endpointDaily: 'escrow.create' },
    summary: 'Lock funds for a receiver (amount, receiver, description, expires_in, referrer, conditions).',
    parse: (input, context) => parseCreateB(input.body, context),
    run: (context, command) =>
      context.platform.escrow.create({ ...command, senderId: callerId(context) }, context.nowMs),
    successStatus: 201,
    render: (escrow) => ({
      escrow_id: escrow.id,
      status: escrow.status,
      amount: moneyB(escrow.amountMicro),
      fee: moneyB(escrow.feeMicro),
      net: moneyB(escrow.netMicro),
      receiver: escrow.receiverId,
      expires_at: isoTime(escrow.expiresAtMs),
    }),
  }),
  settleRowB('release', 'Release an escrow (sender only): net to the receiver, 1% fee.', (escrow) => ({
    escrow_id: escrow.id,
    status: escrow.status,
    tx_hash: escrow.txHash,
    net: moneyB(escrow.netMicro),
    fee: moneyB(escrow.feeMicro),
  })),
  settleRowB('refund', 'Refund a locked escrow before expiry (sender only): full amount, no fee.', (escrow) => ({
    escrow_id: escrow.id,
    status: escrow.status,
    amount: moneyB(escrow.amountMicro),
    tx_hash: escrow.txHash,
  })),
  ...readRows(rowB, { get: '/escrow/:id', list: '/escrows' }, detailB),
  disputeRow(rowB, '/escrow/:id/dispute', 'param'),
];

/** Every escrow row, both styles. */
export const escrowRoutes: readonly Route[] = [...rowsA, ...rowsB];
