/**
 * Bad-input commands of `afp check`: malformed JSON, a wrong content type, wrong field types,
 * unknown fields, bad amounts (text, negative, zero, 7 decimals, huge, a string where style A wants
 * a number), out-of-range expiries and list parameters, missing keys. Each must answer its 4xx
 * with code BAD_REQUEST (401 UNAUTHORIZED for a missing or unknown key) and change nothing: the
 * frame reads every balance back afterwards.
 * Why a table: a new bad input is a new row, named in the shrunk sequence by its `name`.
 */
import type { CallInput, EndpointId } from '../client/client.ts';
import type { TransportRequest } from '../client/transport.ts';
import { UNKNOWN_ESCROW_ID, type CheckModel } from './check-model.ts';
import { SCOPES, type BudgetScope } from './model-limits.ts';
import { expectAnswer, keyed, keyless, type CommandSpec } from './model-command.ts';

interface BadInputRow {
  readonly name: string;
  /** 'keyless': no key, a fresh IP; 'agent': the key of the agent in the command's slot. */
  readonly sender: 'keyless' | 'agent';
  readonly styleA: boolean;
  readonly scopes: readonly BudgetScope[];
  readonly status: number;
  readonly code: 'BAD_REQUEST' | 'UNAUTHORIZED';
  readonly endpoint: EndpointId;
  /** The call; `other` is the id of another slot's agent (registered or not). */
  input(model: Readonly<CheckModel>, own: string, other: string): CallInput;
  readonly rawBody?: { readonly text: string; readonly contentType: string };
  readonly headers?: Readonly<Record<string, string>>;
}

const JSON_TYPE = 'application/json';
const NONE: CallInput = {};
const UNKNOWN_KEY = `sk_live_${'0'.repeat(48)}`;

function keylessRow(name: string, endpoint: EndpointId, styleA: boolean, input: BadInputRow['input'], extra: Partial<BadInputRow> = {}): BadInputRow {
  return { name, sender: 'keyless', styleA, scopes: [], status: 400, code: 'BAD_REQUEST', endpoint, input, ...extra };
}

function agentRow(name: string, endpoint: EndpointId, scopes: readonly BudgetScope[], input: BadInputRow['input'], extra: Partial<BadInputRow> = {}): BadInputRow {
  return { name, sender: 'agent', styleA: scopes === SCOPES.styleA, scopes, status: 400, code: 'BAD_REQUEST', endpoint, input, ...extra };
}

const createB = (amount: unknown, receiver: unknown, extra: Record<string, unknown> = {}): CallInput => ({ body: { amount, receiver, ...extra } });

export const BAD_INPUTS: readonly BadInputRow[] = [
  keylessRow('register B: malformed JSON', 'faucet.B.register', false, () => NONE, { rawBody: { text: '{"agent_id": "', contentType: JSON_TYPE } }),
  keylessRow('register A: text/plain body', 'faucet.A.register', true, () => NONE, { rawBody: { text: 'agent_id=x', contentType: 'text/plain' }, status: 415 }),
  keylessRow('register B: agent_id with spaces', 'faucet.B.register', false, () => ({ body: { agent_id: 'not a valid id!' } })),
  keylessRow('register B: agent_id a number', 'faucet.B.register', false, () => ({ body: { agent_id: 42 } })),
  keylessRow('register A: unknown field', 'faucet.A.register', true, (_model, own) => ({ body: { agent_id: own, nickname: 'x' } })),
  keylessRow('claim A: unknown key', 'faucet.A.claim', true, () => NONE, { status: 401, code: 'UNAUTHORIZED', headers: { authorization: `Bearer ${UNKNOWN_KEY}` } }),
  keylessRow('create escrow B: no key', 'escrow.B.create', false, (_model, _own, other) => createB(1, other), { status: 401, code: 'UNAUTHORIZED' }),
  agentRow('claim B: unknown field', 'faucet.B.claim', SCOPES.faucetB, (_model, own) => ({ body: { agent_id: own, extra: true } })),
  agentRow('create escrow B: amount "ten"', 'escrow.B.create', SCOPES.escrowCreateB, (_model, _own, other) => createB('ten', other)),
  agentRow('create escrow B: amount -1', 'escrow.B.create', SCOPES.escrowCreateB, (_model, _own, other) => createB(-1, other)),
  agentRow('create escrow B: amount 0', 'escrow.B.create', SCOPES.escrowCreateB, (_model, _own, other) => createB(0, other)),
  agentRow('create escrow B: amount "1.0000001"', 'escrow.B.create', SCOPES.escrowCreateB, (_model, _own, other) => createB('1.0000001', other)),
  agentRow('create escrow B: amount 1e13', 'escrow.B.create', SCOPES.escrowCreateB, (_model, _own, other) => createB(1e13, other)),
  agentRow('create escrow B: amount true', 'escrow.B.create', SCOPES.escrowCreateB, (_model, _own, other) => createB(true, other)),
  agentRow('create escrow B: receiver a number', 'escrow.B.create', SCOPES.escrowCreateB, () => createB(1, 12)),
  agentRow('create escrow B: expires_in 1.5', 'escrow.B.create', SCOPES.escrowCreateB, (_model, _own, other) => createB(1, other, { expires_in: 1.5 })),
  agentRow('create escrow B: expires_in too long', 'escrow.B.create', SCOPES.escrowCreateB, (model, _own, other) => createB(1, other, { expires_in: model.config.escrow.maxExpiresInSeconds + 1 })),
  agentRow('create escrow B: unknown field', 'escrow.B.create', SCOPES.escrowCreateB, (_model, _own, other) => createB(1, other, { tip: 1 })),
  agentRow('create escrow B: body an array', 'escrow.B.create', SCOPES.escrowCreateB, () => ({ body: [1, 2] })),
  agentRow('create escrow B: malformed JSON', 'escrow.B.create', SCOPES.escrowCreateB, () => NONE, { rawBody: { text: '{"amount": 1,', contentType: JSON_TYPE } }),
  agentRow('create escrow A: amount a string', 'escrow.A.create', SCOPES.styleA, (_model, own, other) => ({ body: { buyer: own, seller: other, amount: '1.50' } })),
  agentRow('create escrow A: currency EUR', 'escrow.A.create', SCOPES.styleA, (_model, own, other) => ({ body: { buyer: own, seller: other, amount: 1, currency: 'EUR' } })),
  agentRow('dispute B: no reason', 'escrow.B.dispute', SCOPES.escrowB, () => ({ params: { id: UNKNOWN_ESCROW_ID }, body: { evidence: 'x' } })),
  agentRow('list escrows B: limit 0', 'escrow.B.list', SCOPES.escrowB, () => ({ query: { limit: 0 } })),
  agentRow('list escrows B: limit 101', 'escrow.B.list', SCOPES.escrowB, () => ({ query: { limit: 101 } })),
  agentRow('list escrows A: role boss', 'escrow.A.list', SCOPES.styleA, () => ({ query: { role: 'boss' } })),
];

export function badInputCommand(row: BadInputRow, slot: number, otherSlot: number): CommandSpec {
  const label = `badInput(${row.name}${row.sender === 'agent' ? `, by a${slot}` : ''})`;
  return {
    label,
    applicable: (model) => (!row.styleA || model.capabilities.styleA) && (row.sender === 'keyless' || model.agents[slot] !== undefined),
    charges: () => (row.sender === 'agent' ? [{ slot, scopes: row.scopes }] : []),
    parties: () => [slot, otherSlot],
    execute: async (model, system) => {
      const client = row.sender === 'agent' ? keyed(model, system, slot) : keyless(model, system);
      const built = client.request(row.endpoint, row.input(model, model.names.agentId(slot), model.names.agentId(otherSlot)));
      const request: TransportRequest = {
        ...built,
        ...(row.rawBody === undefined ? {} : { rawBody: row.rawBody }),
        ...(row.headers === undefined ? {} : { headers: { ...built.headers, ...row.headers } }),
      };
      const answer = await client.raw(request);
      expectAnswer(label, model, answer, { expected: { status: row.status, code: row.code } });
    },
  };
}
