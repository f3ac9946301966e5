// Style A's DNS upsert replayed on a deployment (src/replay/dns-set-calls.ts, issue 70 part 4): a
// deployment adds, updates and deletes one record at a time, so `domains.dns-set` is asked as the
// domain's records read by id, each named (type, name) set brought to the recorded one record by
// record, and the set after the calls read again and compared as a set (set-compare.ts). Shown on
// the plan (pure), then against a real `afp serve --dialect deployed` (loopback, port 0): a two-MX
// upsert, a replacement that removes a record, and a domain unknown to the replay or held by another;
// and the caller's domain list, compared as a set of names.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { Deadline } from '../../src/core/deadline.ts';
import type { WaitClock } from '../../src/core/clock.ts';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';
import { LiveSession } from '../../src/live/live-session.ts';
import type { DnsEntry, DnsInput, DnsView } from '../../src/live/operations.ts';
import { resolveTarget } from '../../src/live/resolve-target.ts';
import { dnsSetPlan, offersOperation, sendOperation } from '../../src/replay/dns-set-calls.ts';
import { Bindings } from '../../src/replay/bindings.ts';
import { routeOperationOf } from '../../src/replay/route-operations.ts';
import type { IdTranslation, RecordedCall } from '../../src/replay/route-operations-types.ts';
import { compareResults } from '../../src/replay/set-compare.ts';
import { DEPLOYED_LAYOUT } from '../../src/server/deployed-layout.ts';
import { startServe, type ServeHandle } from '../../src/server/listeners.ts';

const DIR = mkdtempSync(join(tmpdir(), 'afp-replay-dns-'));
const handles: ServeHandle[] = [];
afterEach(async () => {
  for (const handle of handles.splice(0)) await handle.close({ forceAfterMs: 0 });
});
const clock: WaitClock = { nowMs: () => Date.now(), sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)) };

const mx = (content: string, priority: number, ttl = 3600): DnsInput => ({
  type: 'MX',
  name: 'www',
  content,
  ttl,
  priority,
});
const a = (content: string, name = 'www', ttl = 3600): DnsInput => ({ type: 'A', name, content, ttl, priority: null });
const held = (recordId: string, record: DnsInput): DnsView => ({ recordId, ...record });
const entry = (record: DnsInput): DnsEntry => ({ ...record });

describe('the plan that brings a record set to the recorded one', () => {
  test('a two-MX upsert on a name that holds none is two adds; the other sets are untouched', () => {
    const plan = dnsSetPlan([held('r1', a('10.0.0.1', '@'))], [mx('mx0.d.xyz', 10), mx('mx1.d.xyz', 20)]);
    expect(plan).toEqual([
      { kind: 'add', record: mx('mx0.d.xyz', 10) },
      { kind: 'add', record: mx('mx1.d.xyz', 20) },
    ]);
  });

  test('a replacement updates a record in place and deletes what the new set no longer holds', () => {
    const plan = dnsSetPlan([held('r1', a('10.0.0.1')), held('r2', a('10.0.0.2'))], [a('10.0.0.3')]);
    expect(plan).toEqual([
      { kind: 'update', recordId: 'r1', content: '10.0.0.3', ttl: 3600 },
      { kind: 'delete', recordId: 'r2' },
    ]);
  });

  test('a value kept with another TTL is updated, with another priority deleted and added again, an equal one left alone', () => {
    const plan = dnsSetPlan(
      [held('r1', mx('mx0.d.xyz', 10)), held('r2', mx('mx1.d.xyz', 20)), held('r3', mx('mx2.d.xyz', 30))],
      [mx('mx0.d.xyz', 10, 600), mx('mx1.d.xyz', 25), mx('mx2.d.xyz', 30)],
    );
    expect(plan).toEqual([
      { kind: 'update', recordId: 'r1', content: 'mx0.d.xyz', ttl: 600 },
      { kind: 'delete', recordId: 'r2' },
      { kind: 'add', record: mx('mx1.d.xyz', 25) },
    ]);
  });
});

describe('the recorded upsert as domains.dns-set', () => {
  const ids = { domain: (name: string) => (name === 'known.xyz' ? 'dom_1' : null) } as IdTranslation;
  const call = (body: unknown): RecordedCall => ({ params: {}, query: {}, body, answer: undefined, callerId: 'x' });

  test("reads the body as the documents' route does: name @, the default TTL, host values lowercased, TXT kept", () => {
    const row = routeOperationOf('domains.A.dns');
    expect(row?.op).toBe('domains.dns-set');
    const body = {
      domain: 'Known.xyz',
      records: [
        { type: 'CNAME', name: 'WWW', value: 'Edge.CDN.example.net' },
        { type: 'TXT', value: 'v=Afp0 Word', ttl: 600 },
      ],
    };
    expect(row?.input(call(body), ids)).toEqual({
      domain: 'known.xyz',
      domainId: 'dom_1',
      records: [
        { type: 'CNAME', name: 'www', content: 'edge.cdn.example.net', ttl: 3600, priority: null },
        { type: 'TXT', name: '@', content: 'v=Afp0 Word', ttl: 600, priority: null },
      ],
    });
    expect(row?.input(call({ domain: 'known.xyz', records: [{ type: 'SRV', value: 'x' }] }), ids)).toBeNull();
    expect(row?.input(call({ domain: 'known.xyz', records: [] }), ids)).toBeNull();
  });
});

async function deployedSession(): Promise<{ session: LiveSession; handle: ServeHandle }> {
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
  const path = join(DIR, 'stand-in.yaml');
  writeFileSync(
    path,
    [
      'name: stand-in',
      'services:',
      `  domains: { url: ${handle.urls.domains as string}, dialect: deployed }`,
      'register: none',
      'funding: { method: keys, keys: [sk_domains_unused] }',
      '',
    ].join('\n'),
  );
  const target = await resolveTarget(path);
  if (!target.ok) throw new Error(target.message);
  return { session: new LiveSession({ target: target.value, clock, deadline: new Deadline(clock, 60) }), handle };
}

/** A funded domains account holding `domain`: its key and the domain's id. */
async function holder(session: LiveSession, handle: ServeHandle, domain: string): Promise<[string, string]> {
  const account = await session.call('domains.account', {}, null);
  if (account.kind !== 'ok') throw new Error('no domains account');
  handle.platform.ledger.transfer({
    from: 'faucet-pool',
    to: `agent:${account.value.agentId}`,
    amountMicro: 50_000_000n,
    reason: 'test.fund',
    reference: account.value.agentId,
  });
  const registered = await session.call('domains.register', { domain, years: 1 }, account.value.apiKey);
  const domainId = registered.kind === 'ok' ? registered.value.domainId : null;
  if (typeof domainId !== 'string') throw new Error('not registered');
  return [account.value.apiKey, domainId];
}

describe('domains.dns-set asked of afp serve --dialect deployed, record by record', () => {
  test('a two-MX upsert, then a replacement that removes one: the live set after each is the recorded one', async () => {
    const { session, handle } = await deployedSession();
    const [key, domainId] = await holder(session, handle, 'dns-set.xyz');
    expect(session.offers('domains.dns-set')).not.toBeNull();
    expect(offersOperation(session, 'domains.dns-set')).toBeNull();
    const set = (records: DnsInput[]) =>
      sendOperation(session, 'domains.dns-set', { domain: 'dns-set.xyz', domainId, records }, key, {});
    await set([a('10.0.0.1', '@')]);
    const two = await set([mx('mx0.dns-set.xyz', 10), mx('mx1.dns-set.xyz', 20)]);
    expect(two).toMatchObject({
      kind: 'ok',
      value: {
        records: [entry(a('10.0.0.1', '@')), entry(mx('mx0.dns-set.xyz', 10)), entry(mx('mx1.dns-set.xyz', 20))],
      },
    });
    const one = await set([mx('mx2.dns-set.xyz', 20)]);
    const recorded = { records: [entry(a('10.0.0.1', '@')), entry(mx('mx2.dns-set.xyz', 20))] };
    expect(one).toMatchObject({ kind: 'ok', value: recorded });
    if (one.kind !== 'ok') return;
    const options = { bindings: new Bindings(), recordingDialect: 'A', liveDialect: 'deployed' } as const;
    // The same set in another order is the same answer; a record the target lacks is named.
    const reversed = { records: [...recorded.records].reverse() };
    expect(
      compareResults('domains.dns-set', { kind: 'ok', value: reversed }, { kind: 'ok', value: one.value }, options),
    ).toEqual([]);
    const more = { records: [...recorded.records, entry(a('10.0.0.9'))] };
    expect(
      compareResults('domains.dns-set', { kind: 'ok', value: more }, { kind: 'ok', value: one.value }, options),
    ).toMatchObject([{ field: 'records', expected: 'A www 10.0.0.9', seen: null }]);
  });

  test('a CNAME beside held records is refused as the documents refuse it, and changes nothing', async () => {
    const { session, handle } = await deployedSession();
    const [key, domainId] = await holder(session, handle, 'cname.xyz');
    const set = (records: DnsInput[]) =>
      sendOperation(session, 'domains.dns-set', { domain: 'cname.xyz', domainId, records }, key, {});
    await set([a('10.0.0.1')]);
    const cname: DnsInput = { type: 'CNAME', name: 'www', content: 'edge.cdn.example.net', ttl: 3600, priority: null };
    expect(await set([cname])).toMatchObject({ kind: 'refused', refusal: { status: 400 } });
    expect(await session.call('domains.dns-records', { domain: 'cname.xyz', domainId }, key)).toMatchObject({
      kind: 'ok',
      value: { records: [entry(a('10.0.0.1'))] },
    });
  });

  test("a domain the replay never registered there cannot be asked; another's is refused 404", async () => {
    const { session, handle } = await deployedSession();
    const [key] = await holder(session, handle, 'mine.xyz');
    const [, othersId] = await holder(session, handle, 'theirs.xyz');
    const unknown = await sendOperation(
      session,
      'domains.dns-set',
      { domain: 'never.xyz', domainId: null, records: [a('10.0.0.1')] },
      key,
      {},
    );
    expect(unknown).toMatchObject({
      kind: 'unsupported',
      reason: expect.stringContaining('no id of never.xyz') as unknown,
    });
    const others = await sendOperation(
      session,
      'domains.dns-set',
      { domain: 'theirs.xyz', domainId: othersId, records: [a('10.0.0.1')] },
      key,
      {},
    );
    expect(others).toMatchObject({ kind: 'refused', refusal: { status: 404, name: 'not_found' } });
  });
});

describe('domains.list through the deployed dialect', () => {
  test('lists the caller’s names with their ids; a name the target lacks is a difference naming that domain', async () => {
    const { session, handle } = await deployedSession();
    const [key, domainId] = await holder(session, handle, 'listed.xyz');
    const listed = await session.call('domains.list', {}, key);
    expect(listed).toMatchObject({
      kind: 'ok',
      value: { domains: [{ domain: 'listed.xyz', status: 'active', domainId }] },
    });
    if (listed.kind !== 'ok') return;
    const recorded = {
      domains: [
        { domain: 'gone.xyz', status: 'active', domainId: null },
        { domain: 'listed.xyz', status: 'active', domainId: null },
      ],
    };
    const options = { bindings: new Bindings(), recordingDialect: 'B', liveDialect: 'deployed' } as const;
    expect(
      compareResults('domains.list', { kind: 'ok', value: recorded }, { kind: 'ok', value: listed.value }, options),
    ).toEqual([
      {
        kind: 'rule',
        field: 'domains',
        expected: 'gone.xyz',
        seen: null,
        note: "the recording's domains hold gone.xyz, the target's do not",
        domain: 'gone.xyz',
      },
    ]);
  });
});
