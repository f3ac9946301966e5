/**
 * Archetype `dns-manager`: registers one name of its own for `years`, then every `every` sets one
 * DNS record set (A, AAAA, CNAME, MX or TXT on a random host) and reads the records back; it renews
 * the name within a month of expiry.
 * Checks: right after an upsert, the listed records of that (type, host) are exactly the values
 * sent (the upsert rule), and the lookup (style B view) names this agent as owner.
 */
import { z } from 'zod';
import type { DnsRecordInput } from '../../src/client/domains-client.ts';
import { defineAgent, type AgentContext } from '../../src/agent/agent.ts';
import { HOUR_MS, jittered, MINUTE_MS, parseIsoMs, reportUnexpected, RETRY_MS } from '../../src/agent/agent-kit.ts';
import { durationMs } from '../../src/scenario/duration.ts';
import {
  readyDomainsAgent,
  setupDomainsAgent,
  labelOf,
  refusedAsExpected,
  registerDomain,
  type DomainsMemory,
} from './domains-kit.ts';

const DAY_MS = 24 * HOUR_MS;
const HOSTS = ['@', 'www', 'api', 'mail'] as const;

const params = z.strictObject({
  every: durationMs({ minMs: MINUTE_MS, maxMs: 30 * DAY_MS })
    .prefault('2h')
    .describe('time between DNS changes'),
  tld: z.enum(['xyz', 'com', 'dev', 'info', 'net', 'org']).prefault('xyz').describe('the TLD of its name'),
  years: z.int().min(1).max(10).prefault(1).describe('years registered'),
});

type Params = z.output<typeof params>;

/** One record set to send: 1 or 2 values of a random type on a random host (no CNAME on '@'). */
function recordSet(context: AgentContext<Params>, domain: string): DnsRecordInput[] {
  const host = context.rng.pick(HOSTS);
  const type = context.rng.pick(
    host === '@' ? (['A', 'AAAA', 'MX', 'TXT'] as const) : (['A', 'AAAA', 'CNAME', 'MX', 'TXT'] as const),
  );
  const count = type === 'CNAME' ? 1 : 1 + context.rng.int(2);
  const records: DnsRecordInput[] = [];
  for (let index = 0; index < count; index++) {
    const n = 1 + context.rng.int(250);
    switch (type) {
      case 'A':
        records.push({ type, name: host, value: `10.${index}.0.${n}` });
        break;
      case 'AAAA':
        records.push({ type, name: host, value: `2001:db8::${index}:${n.toString(16)}` });
        break;
      case 'CNAME':
        records.push({ type, name: host, value: `edge${n}.cdn.example.net` });
        break;
      case 'MX':
        records.push({ type, name: host, value: `mx${index}.${domain}`, priority: 10 * (index + 1) });
        break;
      case 'TXT':
        records.push({ type, name: host, value: `v=afp${index} ${context.faker.word.noun()}` });
        break;
    }
  }
  return records;
}

async function change(context: AgentContext<Params>, domain: string): Promise<void> {
  const records = recordSet(context, domain);
  const first = records[0] as DnsRecordInput;
  const set = await context.client.domains.setDns({ domain, records });
  if (!set.ok) {
    // 400: a CNAME host that holds other records (or the reverse): the platform's rule, expected;
    // 409: expired; 403/404: lost.
    if (!refusedAsExpected(context, set, [400, 403, 404, 409]))
      reportUnexpected(context, `setting DNS of ${domain}`, set, '200');
    return;
  }
  const listed = await context.client.domains.dns(domain);
  if (!listed.ok) {
    if (!refusedAsExpected(context, listed, [404]))
      reportUnexpected(context, `listing DNS of ${domain}`, listed, '200');
    return;
  }
  const held = listed.body.records
    .filter((record) => record.type === first.type && record.name === (first.name ?? '@'))
    .map((record) => record.value);
  const sent = records.map((record) => record.value.toLowerCase());
  if (
    held.length !== sent.length ||
    held.some((value, index) => value !== (first.type === 'TXT' ? records[index]?.value : sent[index]))
  ) {
    context.report(
      `set ${first.type} ${first.name ?? '@'} of ${domain} to ${JSON.stringify(sent)} but the listing holds ${JSON.stringify(held)}`,
      listed.body,
    );
  }
}

async function keep(context: AgentContext<Params>, memory: DomainsMemory, domain: string): Promise<boolean> {
  const expiresAtMs = memory.held.get(domain);
  if (expiresAtMs === undefined) return (await registerDomain(context, memory, domain, context.params.years)) !== null;
  if (expiresAtMs - context.clock.nowMs() > 30 * DAY_MS) return true;
  const renewed = await context.client.domains.renew({ domain, years: 1 });
  if (renewed.ok) {
    memory.held.set(domain, parseIsoMs(renewed.body.expires) ?? expiresAtMs);
    return true;
  }
  if (!refusedAsExpected(context, renewed, [404, 409, 422]))
    reportUnexpected(context, `renewing ${domain}`, renewed, '200');
  if (renewed.status === 404) memory.held.delete(domain);
  return renewed.status !== 404;
}

export const dnsManager = defineAgent<Params>({
  name: 'dns-manager',
  service: 'domains',
  description: 'keeps one name of its own and changes its DNS records (A, AAAA, CNAME, MX, TXT), reading them back',
  params,
  setup: setupDomainsAgent,
  async step(context) {
    const memory = await readyDomainsAgent(context);
    if (memory === null) return { wakeInMs: RETRY_MS };
    const domain = `${labelOf(context.agentId)}.${context.params.tld}`;
    if (await keep(context, memory, domain)) {
      if (memory.held.has(domain)) await change(context, domain);
    }
    return { wakeInMs: jittered(context, context.params.every, Math.floor(context.params.every / 4)) };
  },
});
