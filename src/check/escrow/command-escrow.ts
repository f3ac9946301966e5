/**
 * Escrow commands of `afp check`: create (A and B: amounts below the minimum, short balances,
 * unknown or self receivers, explicit referrers, expiries), release (A, B), refund (B), dispute
 * (A, B), get (A, B) and list (A, B). Escrows are named by creation index (modulo the count) or
 * as an unknown id, so a shrunk sequence still names a real escrow where one exists; who acts on
 * an escrow is named by role (its sender, its receiver, an outsider), so most actions meet the
 * rule they test instead of a 403.
 */
import { formatDecimal, toNumber } from '../../core/money.ts';
import type { AfpClient, ApiResult } from '../../client/client.ts';
import {
  describeEscrowRef,
  describeRef,
  escrowIdOf,
  referenceText,
  registeredSlots,
  resolveEscrow,
  type CheckModel,
  type EscrowRef,
  type CheckStyle,
} from '../check-model.ts';
import type { Prediction } from '../expectation.ts';
import {
  predictCreate,
  predictDispute,
  predictRefund,
  predictRelease,
  type CreateEscrowInput,
  type EscrowActionInput,
} from './model-escrow.ts';
import { predictGet, predictList, type EscrowListInput } from './model-escrow-views.ts';
import { SCOPES, type BudgetScope } from '../model-limits.ts';
import { expectAnswer, keyed, type CommandSpec } from '../model-command.ts';

/** On a wall-clock target no escrow may expire inside a run: shorter expiries are not sent there. */
export const LOOSE_TIME_EXPIRES_MIN_SECONDS = 3_600;

export interface CreateCommandInput extends CreateEscrowInput {
  /** Style B: send the amount as a JSON number or as a decimal string. */
  readonly amountAs: 'number' | 'string';
}

export function createEscrowCommand(input: CreateCommandInput): CommandSpec {
  const label = createLabel(input);
  const style = input.style;
  return {
    label,
    applicable: (model) =>
      model.agents[input.senderSlot] !== undefined &&
      (style === 'B' || model.capabilities.styleA) &&
      (model.capabilities.exactTime ||
        input.expiresInSeconds === null ||
        input.expiresInSeconds >= LOOSE_TIME_EXPIRES_MIN_SECONDS),
    charges: () => [{ slot: input.senderSlot, scopes: style === 'A' ? SCOPES.styleA : SCOPES.escrowCreateB }],
    parties: () => [input.senderSlot, input.receiver.slot, ...(input.referrer === null ? [] : [input.referrer.slot])],
    execute: async (model, system) => {
      const prediction = predictCreate(model, input);
      const client = keyed(model, system, input.senderSlot);
      const answer =
        style === 'A'
          ? await client.escrowA.create(createBodyA(model, input))
          : await client.escrowB.create(createBodyB(model, input));
      expectAnswer(label, model, answer, prediction);
    },
  };
}

/** A plain style-B escrow of `amountMicro` from one slot to another, by id: no expiry, referrer, description or conditions given. */
export function plainEscrowCommand(from: number, to: number, amountMicro: bigint): CommandSpec {
  return createEscrowCommand({
    style: 'B',
    senderSlot: from,
    receiver: { slot: to, via: 'id' },
    amountMicro,
    expiresInSeconds: null,
    referrer: null,
    description: null,
    conditions: null,
    buyer: null,
    amountAs: 'string',
  });
}

function createLabel(input: CreateCommandInput): string {
  const parts = [`a${input.senderSlot} → ${describeRef(input.receiver)}`, formatDecimal(input.amountMicro)];
  if (input.style === 'B' && input.amountAs === 'string') parts[1] = `"${parts[1] as string}"`;
  if (input.expiresInSeconds !== null) parts.push(`expires_in ${input.expiresInSeconds}`);
  if (input.referrer !== null) parts.push(`referrer ${describeRef(input.referrer)}`);
  if (input.buyer !== null) parts.push(`buyer ${describeRef(input.buyer)}`);
  if (input.conditions !== null) parts.push('conditions');
  return `createEscrow${input.style}(${parts.join(', ')})`;
}

function createBodyA(
  model: Readonly<CheckModel>,
  input: CreateCommandInput,
): { buyer: string; seller: string; amount: number; currency?: string; memo?: string } {
  const buyer = input.buyer === null ? model.names.agentId(input.senderSlot) : referenceText(model, input.buyer);
  return {
    buyer,
    seller: referenceText(model, input.receiver),
    amount: toNumber(input.amountMicro),
    currency: 'USDC',
    ...(input.description === null ? {} : { memo: input.description }),
  };
}

function createBodyB(
  model: Readonly<CheckModel>,
  input: CreateCommandInput,
): {
  amount: number | string;
  receiver: string;
  description?: string;
  expires_in?: number;
  referrer?: string;
  conditions?: Record<string, unknown>;
} {
  return {
    amount: input.amountAs === 'string' ? formatDecimal(input.amountMicro) : toNumber(input.amountMicro),
    receiver: referenceText(model, input.receiver),
    ...(input.description === null ? {} : { description: input.description }),
    ...(input.expiresInSeconds === null ? {} : { expires_in: input.expiresInSeconds }),
    ...(input.referrer === null ? {} : { referrer: referenceText(model, input.referrer) }),
    ...(input.conditions === null ? {} : { conditions: { ...input.conditions } }),
  };
}

/** Who acts on an escrow: its sender, its receiver, or a registered agent that is neither. */
export type CallerRole = 'sender' | 'receiver' | 'outsider';

export interface ActionCommandInput {
  readonly style: CheckStyle;
  readonly caller: CallerRole;
  readonly escrow: EscrowRef;
}

/** The acting slot: by role for a known escrow; a0 for the unknown escrow. */
function callerSlot(model: Readonly<CheckModel>, input: ActionCommandInput): number | undefined {
  const escrow = resolveEscrow(model, input.escrow);
  if (escrow === undefined) return input.escrow === 'unknown' && model.agents[0] !== undefined ? 0 : undefined;
  switch (input.caller) {
    case 'sender':
      return escrow.senderSlot;
    case 'receiver':
      return escrow.receiverSlot;
    case 'outsider':
      return registeredSlots(model).find((slot) => slot !== escrow.senderSlot && slot !== escrow.receiverSlot);
  }
}

function actionLabel(name: string, input: ActionCommandInput): string {
  return `${name}(${input.escrow === 'unknown' ? 'a0' : input.caller}, ${describeEscrowRef(input.escrow)})`;
}

/**
 * The shared shape of release, refund, dispute and get: the caller is resolved from the model, the
 * model predicts, `send` asks the target.
 */
function actionCommand(
  label: string,
  input: ActionCommandInput,
  scopes: readonly BudgetScope[],
  predict: (model: Readonly<CheckModel>, resolved: EscrowActionInput) => Prediction,
  send: (client: AfpClient, escrowId: string) => Promise<ApiResult<unknown>>,
): CommandSpec {
  return {
    label,
    applicable: (model) => (input.style === 'B' || model.capabilities.styleA) && callerSlot(model, input) !== undefined,
    charges: (model) => [{ slot: callerSlot(model, input) ?? 0, scopes }],
    parties: (model) => {
      const escrow = resolveEscrow(model, input.escrow);
      const caller = callerSlot(model, input) ?? 0;
      return escrow === undefined
        ? [caller]
        : [
            caller,
            escrow.senderSlot,
            escrow.receiverSlot,
            ...(escrow.referrerSlot === null ? [] : [escrow.referrerSlot]),
          ];
    },
    execute: async (model, system) => {
      const slot = callerSlot(model, input);
      if (slot === undefined) throw new Error(`${label}: precondition broken, no caller`);
      const prediction = predict(model, { style: input.style, callerSlot: slot, escrow: input.escrow });
      expectAnswer(label, model, await send(keyed(model, system, slot), escrowIdOf(model, input.escrow)), prediction);
    },
  };
}

export function releaseCommand(input: ActionCommandInput): CommandSpec {
  const scopes = input.style === 'A' ? SCOPES.styleA : SCOPES.escrowB;
  return actionCommand(actionLabel(`release${input.style}`, input), input, scopes, predictRelease, (client, escrowId) =>
    input.style === 'A' ? client.escrowA.release({ escrow_id: escrowId }) : client.escrowB.release(escrowId),
  );
}

export function refundCommand(input: ActionCommandInput): CommandSpec {
  const refund = { ...input, style: 'B' as const };
  return actionCommand(actionLabel('refundB', refund), refund, SCOPES.escrowB, predictRefund, (client, escrowId) =>
    client.escrowB.refund(escrowId),
  );
}

export interface DisputeCommandInput extends ActionCommandInput {
  readonly reason: string;
  readonly evidence: string | null;
}

export function disputeCommand(input: DisputeCommandInput): CommandSpec {
  const scopes = input.style === 'A' ? SCOPES.styleA : SCOPES.escrowB;
  const label = actionLabel(`dispute${input.style}`, input).replace(
    /\)$/,
    input.evidence === null ? ')' : ', with evidence)',
  );
  const evidence = input.evidence === null ? {} : { evidence: input.evidence };
  return actionCommand(
    label,
    input,
    scopes,
    (model, resolved) => predictDispute(model, { ...resolved, reason: input.reason, evidence: input.evidence }),
    (client, escrowId) =>
      input.style === 'A'
        ? client.escrowA.dispute({ escrow_id: escrowId, reason: input.reason, ...evidence })
        : client.escrowB.dispute(escrowId, { reason: input.reason, ...evidence }),
  );
}

export function getEscrowCommand(input: ActionCommandInput): CommandSpec {
  const scopes = input.style === 'A' ? SCOPES.styleA : SCOPES.escrowB;
  return actionCommand(actionLabel(`getEscrow${input.style}`, input), input, scopes, predictGet, (client, escrowId) =>
    input.style === 'A' ? client.escrowA.get(escrowId) : client.escrowB.get(escrowId),
  );
}

export function listEscrowsCommand(input: EscrowListInput): CommandSpec {
  const filters = [
    input.role === null ? null : `role=${input.role}`,
    input.status === null ? null : `status=${input.status}`,
    input.limit === null ? null : `limit=${input.limit}`,
  ];
  const label = `listEscrows${input.style}(a${input.callerSlot}${filters
    .filter((part) => part !== null)
    .map((part) => `, ${part}`)
    .join('')})`;
  return {
    label,
    applicable: (model) =>
      (input.style === 'B' || model.capabilities.styleA) &&
      model.agents[input.callerSlot] !== undefined &&
      (model.capabilities.exactTime || listFitsUnordered(model, input)),
    charges: () => [{ slot: input.callerSlot, scopes: input.style === 'A' ? SCOPES.styleA : SCOPES.escrowB }],
    parties: () => [input.callerSlot],
    execute: async (model, system) => {
      const prediction = predictList(model, input);
      const client = keyed(model, system, input.callerSlot);
      const query = {
        ...(input.role === null ? {} : { role: input.role }),
        ...(input.status === null ? {} : { status: input.status }),
        ...(input.limit === null ? {} : { limit: input.limit }),
      };
      const answer = input.style === 'A' ? await client.escrowA.list(query) : await client.escrowB.list(query);
      expectAnswer(
        label,
        model,
        model.capabilities.exactTime ? answer : { status: answer.status, body: sortedById(answer.body) },
        prediction,
      );
    },
  };
}

/**
 * On a wall-clock target the model knows creation instants only within a tolerance, so lists are
 * compared as sets (sorted by escrow_id on both sides) and only when nothing is cut by the limit.
 */
function listFitsUnordered(model: Readonly<CheckModel>, input: EscrowListInput): boolean {
  const own = model.escrows.filter(
    (escrow) => escrow.senderSlot === input.callerSlot || escrow.receiverSlot === input.callerSlot,
  );
  return (
    own.length <= Math.min(input.limit ?? model.config.escrow.listLimitDefault, model.config.escrow.listLimitDefault)
  );
}

function sortedById(body: unknown): unknown {
  if (typeof body !== 'object' || body === null) return body;
  const escrows = (body as { escrows?: unknown }).escrows;
  if (!Array.isArray(escrows)) return body;
  const idOf = (item: unknown): string => String((item as { escrow_id?: unknown } | null)?.escrow_id);
  return {
    ...body,
    escrows: [...(escrows as unknown[])].sort((a, b) => (idOf(a) < idOf(b) ? -1 : idOf(a) > idOf(b) ? 1 : 0)),
  };
}
