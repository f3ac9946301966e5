/**
 * Archetype `bad-input-sender`: registers, then every `every` sends `per_wake` requests that are
 * wrong on purpose (malformed JSON, a wrong content type, an oversized body, wrong types, unknown
 * fields, negative / zero / huge / 7-decimal amounts, bad durations, unknown routes, wrong
 * methods, bad keys, unknown ids, bad queries), through `client.raw` so nothing is corrected on
 * the way. Cases are taken in an order shuffled from its own rng, cycling through the whole table.
 *
 * Checks: every answer is a 4xx carrying string `error` and `code`, with the status the case
 * expects (a 429 is accepted for any case: every request counts against the limits); a 2xx or
 * a 5xx (outside a fault window) to bad input is reported; and its own balance is the same before
 * and after each batch (bad input changes nothing).
 */
import { z } from 'zod';
import type { TransportRequest, TransportResponse } from '../../src/client/transport.ts';
import type { ServiceName } from '../../src/platform/platform.ts';
import { defineAgent, type AgentContext } from '../../src/agent/agent.ts';
import {
  freshFaucetMemory,
  HOUR_MS,
  memoryOf,
  MINUTE_MS,
  moneyIn,
  register,
  type FaucetMemory,
  RETRY_MS,
} from '../../src/agent/agent-kit.ts';
import { BAD_INPUT_CASES, type BadInputCase } from '../../src/agent/bad-input-cases.ts';
import { durationMs } from '../../src/scenario/duration.ts';

const params = z.strictObject({
  every: durationMs({ minMs: MINUTE_MS, maxMs: 30 * 24 * HOUR_MS })
    .prefault('1h')
    .describe('time between batches'),
  per_wake: z.int().min(1).max(100).prefault(10).describe('bad requests per batch'),
});

type Params = z.output<typeof params>;

interface SenderMemory extends FaucetMemory {
  order: number[];
  cursor: number;
  sent: number;
}

function memory(context: AgentContext<Params>): SenderMemory {
  return memoryOf(context, () => ({
    ...freshFaucetMemory(),
    order: shuffled(context, BAD_INPUT_CASES.length),
    cursor: 0,
    sent: 0,
  }));
}

/** 0..count-1 in an order drawn from the agent's rng (Fisher–Yates). */
function shuffled(context: AgentContext<Params>, count: number): number[] {
  const order = Array.from({ length: count }, (_, index) => index);
  for (let index = count - 1; index > 0; index--) {
    const other = context.rng.int(index + 1);
    [order[index], order[other]] = [order[other] as number, order[index] as number];
  }
  return order;
}

async function balanceMicro(context: AgentContext<Params>): Promise<bigint | null> {
  const result = await context.client.faucetA.status();
  return result.ok ? moneyIn(result.body.balance_usdc) : null;
}

function serviceOf(request: TransportRequest, badCase: BadInputCase): ServiceName | null {
  return request.mount === 'api' ? badCase.service : request.mount;
}

/** Judges one answer; returns false when it reported a violation. */
function judge(
  context: AgentContext<Params>,
  badCase: BadInputCase,
  request: TransportRequest,
  response: TransportResponse,
): boolean {
  const body = response.body as { error?: unknown; code?: unknown } | null;
  const service = serviceOf(request, badCase);
  if (response.status >= 500 && service !== null && context.expectedOutage(service)) return true;
  const shaped = typeof body?.error === 'string' && typeof body.code === 'string';
  const statusOk = response.status === badCase.expect || response.status === 429;
  if (statusOk && shaped) return true;
  context.report(
    `bad input '${badCase.name}' answered ${response.status}${shaped ? '' : ' without {error, code}'}; expected ${badCase.expect}`,
    {
      case: badCase.name,
      request: { mount: request.mount, method: request.method, path: request.path, query: request.query ?? null },
      status: response.status,
      body: response.body,
    },
  );
  return false;
}

async function batch(context: AgentContext<Params>, sender: SenderMemory): Promise<void> {
  const before = await balanceMicro(context);
  const counterparty = context.directory.pick('escrow-seller', context.rng, context.agentId) ?? context.agentId;
  for (let count = 0; count < context.params.per_wake; count++) {
    const badCase = BAD_INPUT_CASES[sender.order[sender.cursor % sender.order.length] as number] as BadInputCase;
    sender.cursor++;
    sender.sent++;
    const request = badCase.build({ agentId: context.agentId, counterparty });
    const response = await context.client.raw(request);
    if (!judge(context, badCase, request, response)) return;
  }
  const after = await balanceMicro(context);
  if (before !== null && after !== null && before !== after) {
    context.report(`balance moved from ${before} to ${after} micro-USDC over a batch of bad input`, { before, after });
  }
}

export const badInputSender = defineAgent<Params>({
  name: 'bad-input-sender',
  description: 'sends malformed and invalid requests and checks each answers 4xx {error, code} and changes nothing',
  params,
  async setup(context) {
    await register(context, memory(context));
  },
  async step(context) {
    const sender = memory(context);
    if (!sender.registered && !(await register(context, sender))) return { wakeInMs: RETRY_MS };
    await batch(context, sender);
    return { wakeInMs: context.params.every };
  },
});
