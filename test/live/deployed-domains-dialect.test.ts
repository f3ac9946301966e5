// The deployed domains dialect (src/live/dialects/deployed/domains.ts) read against a real
// `afp serve --dialect deployed` (loopback, port 0) through a target file: its own accounts and
// balance, register by name (domain_id, cost.total_usd), the holder by whois, a gift by id. The
// documents' names it answers otherwise are documented deviations only (never a failure); what the
// deployed shape has no field for (a price, years ≠ 1, a transfer without the id) is `unsupported`
// and never sent — shown against an address where nothing listens.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { Deadline } from '../../src/core/deadline.ts';
import type { WaitClock } from '../../src/core/clock.ts';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { LiveSession, type CallDeviation } from '../../src/live/live-session.ts';
import { resolveTarget } from '../../src/live/resolve-target.ts';
import type { Target } from '../../src/live/target.ts';
import { DEPLOYED_LAYOUT } from '../../src/server/deployed-layout.ts';
import { startServe, type ServeHandle } from '../../src/server/listeners.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';

const DIR = mkdtempSync(join(tmpdir(), 'afp-deployed-domains-'));
const handles: ServeHandle[] = [];
afterEach(async () => {
  for (const handle of handles.splice(0)) await handle.close({ forceAfterMs: 0 });
});
const clock: WaitClock = { nowMs: () => Date.now(), sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)) };

async function targetFor(name: string, domainsUrl: string): Promise<Target> {
  const path = join(DIR, `${name}.yaml`);
  writeFileSync(
    path,
    [
      `name: ${name}`,
      'services:',
      `  domains: { url: ${domainsUrl}, dialect: deployed }`,
      'register: none',
      'funding: { method: keys, keys: [sk_domains_unused] }',
      '',
    ].join('\n'),
  );
  const resolved = await resolveTarget(path);
  if (!resolved.ok) throw new Error(resolved.message);
  return resolved.value;
}

describe('the deployed domains dialect', () => {
  test('account, balance, register, whois and a gift through the stand-in; renamed fields are documented deviations only', async () => {
    const handle = await startServe({
      trustedProxies: LOOPBACK_PROXIES,
      routes: DEPLOYED_ROUTES,
      layout: DEPLOYED_LAYOUT,
      seed: '9',
      port: 0,
      clockMode: 'manual',
      startMs: Date.parse('2025-03-01T00:00:00Z'),
      defects: [],
      log: () => undefined,
    });
    handles.push(handle);
    const deviations: CallDeviation[] = [];
    const session = new LiveSession({
      target: await targetFor('stand-in', handle.urls.domains as string),
      clock,
      deadline: new Deadline(clock, 60),
      onDeviation: (deviation) => deviations.push(deviation),
    });
    const alice = await session.call('domains.account', {}, null);
    const bob = await session.call('domains.account', {}, null);
    if (alice.kind !== 'ok' || bob.kind !== 'ok') throw new Error('no domains account');
    expect(alice.value.apiKey).toMatch(/^sk_domains_/);
    handle.platform.ledger.transfer({
      from: 'faucet-pool',
      to: `agent:${alice.value.agentId}`,
      amountMicro: 20_000_000n,
      reason: 'test.fund',
      reference: alice.value.agentId,
    });
    expect(await session.call('domains.balance', {}, alice.value.apiKey)).toMatchObject({
      kind: 'ok',
      value: { agentId: alice.value.agentId, balanceMicro: 20_000_000n },
    });
    const registered = await session.call(
      'domains.register',
      { domain: 'dialect-test.xyz', years: 1 },
      alice.value.apiKey,
    );
    expect(registered).toMatchObject({
      kind: 'ok',
      status: 201,
      value: {
        domain: 'dialect-test.xyz',
        costMicro: 14_400_000n,
        domainId: expect.stringMatching(/^dom_/) as unknown,
      },
    });
    const domainId = registered.kind === 'ok' ? (registered.value.domainId ?? null) : null;
    expect(await session.call('domains.lookup', { domain: 'dialect-test.xyz' }, null)).toMatchObject({
      kind: 'ok',
      value: { owner: alice.value.agentId, status: 'active' },
    });
    expect(await session.call('domains.lookup', { domain: 'nobody-holds.xyz' }, null)).toMatchObject({
      kind: 'ok',
      value: { owner: null, status: null },
    });
    const taken = await session.call('domains.register', { domain: 'dialect-test.xyz', years: 1 }, bob.value.apiKey);
    expect(taken).toMatchObject({ kind: 'refused', refusal: { status: 400, name: 'domain_unavailable' } });
    const grab = await session.call(
      'domains.transfer',
      { domain: 'dialect-test.xyz', domainId, to: bob.value.agentId, priceMicro: null },
      bob.value.apiKey,
    );
    expect(grab).toMatchObject({ kind: 'refused', refusal: { status: 404, name: 'not_found' } });
    const gift = await session.call(
      'domains.transfer',
      { domain: 'dialect-test.xyz', domainId, to: bob.value.agentId, priceMicro: null },
      alice.value.apiKey,
    );
    expect(gift).toMatchObject({ kind: 'ok', value: { status: 'transferred', owner: bob.value.agentId } });
    expect(await session.call('domains.lookup', { domain: 'dialect-test.xyz' }, null)).toMatchObject({
      kind: 'ok',
      value: { owner: bob.value.agentId },
    });
    // Every deviation is one the dialect documents (a renamed field), never an undocumented one.
    expect(deviations.length).toBeGreaterThan(0);
    expect(
      deviations
        .filter((found) => !found.deviation.documented)
        .map((found) => `${found.op} ${found.deviation.kind} ${found.deviation.field}`),
    ).toEqual([]);
    // Renamed fields, and the refusals' bodies without the documents' `code` (DEPLOYED.md §1.2).
    expect(new Set(deviations.map((found) => found.deviation.field))).toEqual(
      new Set(['balance_usd', 'expires_at', 'transaction_id', 'to_agent_id', 'registrant', 'code']),
    );
  });

  test('a price, years ≠ 1 or a transfer without the domain id is unsupported, with the reason, and not sent', async () => {
    // Port 9 (discard): nothing answers on loopback, so any call that was sent would come back unreachable.
    const session = new LiveSession({
      target: await targetFor('nowhere', 'http://127.0.0.1:9'),
      clock,
      deadline: new Deadline(clock, 10),
    });
    const priced = await session.call(
      'domains.transfer',
      { domain: 'a.xyz', domainId: 'dom_0', to: 'ag_x', priceMicro: 1_000_000n },
      'sk_domains_x',
    );
    expect(priced).toEqual({
      kind: 'unsupported',
      reason:
        'the deployed domains have no priced transfer (no offer, no purchase): a transfer is a gift by its owner (DEPLOYED.md §7)',
    });
    expect(
      await session.call('domains.transfer', { domain: 'a.xyz', to: 'ag_x', priceMicro: null }, 'sk_domains_x'),
    ).toMatchObject({ kind: 'unsupported', reason: expect.stringContaining('by domain id') as unknown });
    expect(await session.call('domains.register', { domain: 'a.xyz', years: 2 }, 'sk_domains_x')).toMatchObject({
      kind: 'unsupported',
      reason: expect.stringContaining('1 year only') as unknown,
    });
    expect((await session.call('domains.balance', {}, 'sk_domains_x')).kind).toBe('unreachable');
  });
});
