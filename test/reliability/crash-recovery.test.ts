// Reliability: 5 crash-and-recover cycles of a real `afp serve --data FILE` child process under
// load. Each cycle starts the server on the same log, sends registrations and escrow creates 16 at
// a time, kills it with SIGKILL once a cycle-specific number of writes were acknowledged (so
// requests are in flight at the kill), and the next start must recover
// every write that was acknowledged (201) in any earlier cycle: each agent answers its own key
// (GET /api/v1/agents/:id → 200) and each escrow is found by its creator (GET /escrow/:id → 200).
// Requests cut by the kill (no answer) were never acknowledged and may or may not be there.
// Bounded: a fixed request budget per cycle, per-request timeouts, every child ended by its pid.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { startServeChild, type ServeChild } from '../fixtures/serve-child.ts';
import { jsonOf, pool, send } from './reliability-kit.ts';

const CYCLES = 5;
const REQUESTS_PER_CYCLE = 400;
/** Each cycle's kill comes once this many writes of the cycle were acknowledged (load is then in flight), or after 10 s. */
const KILL_AFTER_ACKS = [10, 40, 25, 60, 30];
const FLAGS = ['--port', '0', '--clock', 'manual', '--start', '2026-01-01T00:00:00Z', '--seed', '21'];

const children: ServeChild[] = [];
let directory = '';

afterAll(async () => {
  for (const child of children) await child.kill9();
  if (directory !== '') await rm(directory, { recursive: true, force: true });
});

interface Acknowledged {
  readonly agents: Map<string, string>;
  readonly escrows: Map<string, string>;
}

/** Load until killed or the budget is spent: registrations, and an escrow from each agent acknowledged earlier. */
async function load(
  child: ServeChild,
  cycle: number,
  acknowledged: Acknowledged,
  onAck: (acked: number) => void,
): Promise<{ sent: number; acked: number; cut: number }> {
  const api = child.urls['api'] as string;
  // The first acknowledged agent receives every escrow; the others pay.
  const [receiver, ...payers] = [...acknowledged.agents];
  let acked = 0;
  let cut = 0;
  await pool(REQUESTS_PER_CYCLE, 16, async (n) => {
    const payer = payers[n];
    const ip = `10.5.${cycle}.${n & 255}`;
    if (payer !== undefined && n % 2 === 1) {
      const [, key] = payer;
      const answer = await send(
        api,
        {
          method: 'POST',
          path: '/escrow',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, 'x-forwarded-for': ip },
          body: JSON.stringify({ receiver: receiver?.[0], amount: '0.50' }),
        },
        5_000,
      );
      const escrowId = jsonOf(answer)?.['escrow_id'];
      if (answer.status === 201 && typeof escrowId === 'string') {
        acknowledged.escrows.set(escrowId, key);
        onAck((acked += 1));
      } else if (answer.status === 0) cut += 1;
      return;
    }
    const agentId = `crash-${cycle}-${n}`;
    const answer = await send(
      api,
      {
        method: 'POST',
        path: '/register',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `${ip}${n >> 8}` },
        body: JSON.stringify({ agent_id: agentId }),
      },
      5_000,
    );
    const key = jsonOf(answer)?.['api_key'];
    if (answer.status === 201 && typeof key === 'string') {
      acknowledged.agents.set(agentId, key);
      onAck((acked += 1));
    } else if (answer.status === 0) cut += 1;
  });
  return { sent: REQUESTS_PER_CYCLE, acked, cut };
}

/** How many acknowledged writes the server answers for, and which it does not. */
async function verify(child: ServeChild, acknowledged: Acknowledged): Promise<{ present: number; missing: string[] }> {
  const checks: Array<[string, string, string]> = [
    ...[...acknowledged.agents].map(([agentId, key]): [string, string, string] => [
      child.urls['faucet'] as string,
      `/api/v1/agents/${agentId}`,
      key,
    ]),
    ...[...acknowledged.escrows].map(([escrowId, key]): [string, string, string] => [
      child.urls['api'] as string,
      `/escrow/${escrowId}`,
      key,
    ]),
  ];
  const missing: string[] = [];
  let present = 0;
  await pool(checks.length, 8, async (index) => {
    const [base, path, key] = checks[index] as [string, string, string];
    const answer = await send(
      base,
      {
        method: 'GET',
        path,
        headers: { authorization: `Bearer ${key}`, 'x-forwarded-for': `10.6.${(index >> 8) & 255}.${index & 255}` },
      },
      10_000,
    );
    if (answer.status === 200) present += 1;
    else missing.push(`${path} → ${answer.status}`);
  });
  return { present, missing };
}

describe('reliability: crash and recover', () => {
  test(`${CYCLES} kill -9 cycles of afp serve --data under load: every acknowledged write recovered`, async () => {
    directory = await mkdtemp(join(tmpdir(), 'afp-crash-'));
    const data = join(directory, 'afp.db');
    const acknowledged: Acknowledged = { agents: new Map(), escrows: new Map() };
    const lines: string[] = [];
    for (let cycle = 0; cycle < CYCLES; cycle += 1) {
      const child = await startServeChild([...FLAGS, '--data', data], { readyTimeoutMs: 60_000, lifetimeMs: 120_000 });
      children.push(child);
      const recovered = /recovered: (\d+) commands from .* in (\d+) ms/.exec(child.stderr());
      const before = await verify(child, acknowledged);
      expect(before.missing, `cycle ${cycle}: acknowledged writes missing after recovery`).toEqual([]);
      const kill: { done: Promise<number | null> | null } = { done: null };
      const killOnce = (): void => {
        kill.done ??= child.kill9();
      };
      const timer = setTimeout(killOnce, 10_000);
      const result = await load(child, cycle, acknowledged, (acked) => {
        if (acked >= (KILL_AFTER_ACKS[cycle] ?? 20)) killOnce();
      });
      clearTimeout(timer);
      killOnce();
      await kill.done;
      lines.push(
        `cycle ${cycle}: recovered ${recovered?.[1] ?? 0} commands in ${recovered?.[2] ?? 0} ms, verified ${before.present}; load ${result.acked} acknowledged, ${result.cut} unanswered (cut by the kill or sent after it)`,
      );
    }
    const last = await startServeChild([...FLAGS, '--data', data], { readyTimeoutMs: 60_000, lifetimeMs: 120_000 });
    children.push(last);
    const final = await verify(last, acknowledged);
    await last.stop();
    console.log(
      `crash and recover: ${CYCLES} cycles; ${acknowledged.agents.size} agents and ${acknowledged.escrows.size} escrows acknowledged, ${final.present} present after the last restart, ${final.missing.length} missing`,
    );
    for (const line of lines) console.log(`  ${line}`);
    expect(final.missing).toEqual([]);
    expect(final.present).toBe(acknowledged.agents.size + acknowledged.escrows.size);
    expect(acknowledged.agents.size).toBeGreaterThan(0);
  }, 300_000);
});
