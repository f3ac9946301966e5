/**
 * The domains commands of `afp check --target` beyond register, lookup and transfer
 * (dialect-commands-services.ts holds those), predicted from the same domains model
 * (dialect-model-services.ts) and compared:
 *   - check: a name of the run is available exactly while the model holds it by nobody, at a
 *     positive yearly price, the price its registration was charged;
 *   - DNS records on a held name (by its holder): one record of a type (NOTES.md: A, AAAA, CNAME,
 *     MX, TXT) added and listed, its content and TTL changed and listed so, a record of invalid
 *     content and one of a TTL outside 60 to 86,400 refused with a 4xx and nothing changed, the
 *     record deleted and the list back as before;
 *   - the registration race: two registrations of one fresh name sent together (both in flight
 *     before either answers), from the funded account: exactly one accepted, the other refused as
 *     taken, one charge (the balance read after), and whois names the account the holder.
 * The race needs the balance to pay twice, so that a refusal for funds cannot hide a lost race.
 */
import fc from 'fast-check';
import { formatDecimal, type Micro } from '../../core/money.ts';
import type { DnsInput, DnsView } from '../../live.ts';
import { CheckMismatch } from '../check-mismatch.ts';
import { accepted, judged, refused, type DialectCommandRow } from './dialect-commands.ts';
import { throwIfOutage } from './target-outage.ts';
import type { DialectSystem } from './dialect-model.ts';
import { runNameCommand, serviceCommand } from './service-command.ts';
import { NAMES_PER_RUN } from './dialect-model-services.ts';
import { learnedDomainMaximum } from './dialect-commands-services.ts';

/** Race names of a run: slots after the registered names' (runDomainName(tag, NAMES_PER_RUN + i)). */
const RACES_PER_RUN = 2;
const CHANGED_TTL = 7_200;

const text = (micro: Micro): string => formatDecimal(micro);

const checkCommand = fc.nat({ max: NAMES_PER_RUN + RACES_PER_RUN - 1 }).map((index) => {
  const label = `domainCheck(name#${index})`;
  return runNameCommand(
    label,
    index,
    () => true,
    async (domains, name, system) => {
      const { value } = await accepted(system, label, 'domains.check', { names: [name] }, null);
      const result = value.results.find((one) => one.domain === name);
      if (result === undefined) throw new CheckMismatch(`${label}: the answer has no result for ${name}`);
      const held = domains.held.get(name);
      if (result.available !== null && result.available !== (held === undefined))
        throw new CheckMismatch(
          `${label}: ${name} ${result.available ? 'available' : 'taken'}, expected ${held === undefined ? 'available (never registered)' : 'taken'}`,
        );
      if (result.priceMicro !== null && result.priceMicro <= 0n)
        throw new CheckMismatch(`${label}: a yearly price of ${text(result.priceMicro)}`);
      const cost = held?.costMicro ?? null;
      if (result.priceMicro !== null && cost !== null && result.priceMicro !== cost)
        throw new CheckMismatch(
          `${label}: priced ${text(result.priceMicro)} a year, its one-year registration cost ${text(cost)}`,
        );
    },
  );
});

/** One valid record per type, its change, and a content the type refuses. */
const RECORD_KINDS: readonly { readonly record: DnsInput; readonly changed: string; readonly invalid: string }[] = [
  {
    record: { type: 'A', name: 'afp-a', content: '192.0.2.1', ttl: 3_600, priority: null },
    changed: '192.0.2.2',
    invalid: '999.1.1.1',
  },
  {
    record: { type: 'AAAA', name: 'afp-aaaa', content: '2001:db8::1', ttl: 3_600, priority: null },
    changed: '2001:db8::2',
    invalid: 'not-an-address',
  },
  {
    record: { type: 'CNAME', name: 'afp-cname', content: 'target.example.com', ttl: 3_600, priority: null },
    changed: 'other.example.com',
    invalid: 'not a host name',
  },
  {
    record: { type: 'MX', name: 'afp-mx', content: 'mail.example.com', ttl: 3_600, priority: 10 },
    changed: 'mx2.example.com',
    invalid: '-bad-.',
  },
  {
    record: { type: 'TXT', name: 'afp-txt', content: 'afp check', ttl: 3_600, priority: null },
    changed: 'afp check, changed',
    invalid: 'x'.repeat(300),
  },
];

/** The list's records as comparable text (id, type, name, content, ttl), sorted. */
function shown(records: readonly DnsView[]): string {
  return records
    .map(
      (record) =>
        `${record.recordId} ${String(record.type)} ${String(record.name)} ${String(record.content)} ${String(record.ttl)}`,
    )
    .sort()
    .join('; ');
}

function sameContent(type: string, seen: string | null, sent: string): boolean {
  return seen === null || (type === 'TXT' ? seen === sent : seen.toLowerCase() === sent.toLowerCase());
}

async function refusedFourXx(
  system: DialectSystem,
  label: string,
  input: { domainId: string; record: DnsInput },
  apiKey: string,
): Promise<void> {
  const refusal = await refused(system, label, 'domains.dns-add', input, apiKey);
  const status = Number(refusal.text.split(' ')[0]);
  if (status < 400 || status > 499) throw new CheckMismatch(`${label}: refused ${refusal.text}, expected a 4xx`);
}

const dnsCommand = fc
  .record({ index: fc.nat({ max: NAMES_PER_RUN - 1 }), kind: fc.nat({ max: RECORD_KINDS.length - 1 }) })
  .map(({ index, kind }) => {
    const { record, changed, invalid } = RECORD_KINDS[kind] as (typeof RECORD_KINDS)[number];
    const label = `dnsRecords(held#${index}, ${record.type})`;
    return serviceCommand(
      'domains',
      label,
      (domains) => [...domains.held.values()].some((held) => held.domainId !== null),
      async (domains, system) => {
        const names = [...domains.held.entries()].filter(([, held]) => held.domainId !== null);
        const [name, held] = names[index % names.length] ?? [];
        if (name === undefined || held === undefined || held.domainId === null)
          throw new Error(`${label}: precondition broken`);
        const domainId = held.domainId;
        const key = domains.accounts[held.holder].apiKey;
        const list = async (step: string): Promise<readonly DnsView[]> =>
          (await accepted(system, `${label}: ${step}`, 'domains.dns-list', { domainId }, key)).value.records;
        const before = await list('list before');
        const added = (
          await accepted(
            system,
            `${label}: add ${record.content} to ${name}`,
            'domains.dns-add',
            { domainId, record },
            key,
          )
        ).value;
        if (
          !sameContent(record.type, added.content, record.content) ||
          (added.ttl !== null && added.ttl !== record.ttl)
        )
          throw new CheckMismatch(
            `${label}: added as ${String(added.content)} ttl ${String(added.ttl)}, sent ${record.content} ttl ${record.ttl}`,
          );
        if (!(await list('list after the add')).some((one) => one.recordId === added.recordId))
          throw new CheckMismatch(`${label}: the added record ${added.recordId} is not listed`);
        const updated = (
          await accepted(
            system,
            `${label}: change to ${changed} ttl ${CHANGED_TTL}`,
            'domains.dns-update',
            { recordId: added.recordId, content: changed, ttl: CHANGED_TTL },
            key,
          )
        ).value;
        const afterUpdate = await list('list after the change');
        const now = afterUpdate.find((one) => one.recordId === updated.recordId);
        if (
          now === undefined ||
          !sameContent(record.type, now.content, changed) ||
          (now.ttl !== null && now.ttl !== CHANGED_TTL)
        )
          throw new CheckMismatch(
            `${label}: after the change the list shows ${now === undefined ? 'no such record' : `${String(now.content)} ttl ${String(now.ttl)}`}, expected ${changed} ttl ${CHANGED_TTL}`,
          );
        if (
          afterUpdate.some(
            (one) =>
              one.type === record.type &&
              one.name === record.name &&
              sameContent(record.type, one.content, record.content) &&
              record.content !== changed,
          )
        )
          throw new CheckMismatch(`${label}: the old content ${record.content} is still listed after the change`);
        await refusedFourXx(
          system,
          `${label}: invalid content`,
          { domainId, record: { ...record, content: invalid } },
          key,
        );
        await refusedFourXx(
          system,
          `${label}: ttl 59`,
          { domainId, record: { ...record, content: changed, ttl: 59 } },
          key,
        );
        const afterRefusals = await list('list after the refusals');
        if (shown(afterRefusals) !== shown(afterUpdate))
          throw new CheckMismatch(
            `${label}: a refused record changed the list: ${shown(afterRefusals)}, was ${shown(afterUpdate)}`,
          );
        const deleted = (
          await accepted(system, `${label}: delete`, 'domains.dns-delete', { recordId: updated.recordId }, key)
        ).value;
        if (deleted.deleted === false) throw new CheckMismatch(`${label}: the delete answered deleted: false`);
        const after = await list('list after the delete');
        if (shown(after) !== shown(before))
          throw new CheckMismatch(
            `${label}: after the delete the list is ${shown(after) || 'empty'}, expected as before: ${shown(before) || 'empty'}`,
          );
      },
    );
  });

const raceCommand = fc.nat({ max: RACES_PER_RUN - 1 }).map((slot) => {
  const index = NAMES_PER_RUN + slot;
  const label = `domainRace(d0, name#${index}, two at once)`;
  return runNameCommand(
    label,
    index,
    (domains, name) => !domains.held.has(name) && domains.accounts[0].balanceMicro > 0n,
    async (domains, name, system) => {
      const account = domains.accounts[0];
      const price =
        (await accepted(system, `${label}: price`, 'domains.check', { names: [name] }, null)).value.results.find(
          (one) => one.domain === name,
        )?.priceMicro ?? null;
      // A loser refused for funds would hide a lost race: raced only while the balance pays twice.
      if (price === null || account.unsure || account.balanceMicro < 2n * price) return;
      const input = { domain: name, years: 1 };
      const outcomes = await Promise.all([
        system.session.call('domains.register', input, account.apiKey),
        system.session.call('domains.register', input, account.apiKey),
      ]);
      for (const outcome of outcomes) await throwIfOutage(system, label, 'domains.register', outcome);
      for (const outcome of outcomes)
        if (outcome.kind !== 'ok' && outcome.kind !== 'refused')
          throw new Error(`${label}: ${outcome.kind === 'unreachable' ? outcome.message : outcome.kind}`);
      const won = outcomes.flatMap((outcome) => (outcome.kind === 'ok' ? [outcome.value] : []));
      // Both refused, each stating a per-agent maximum d0 has reached (with names from earlier runs): the target's rule.
      if (
        won.length === 0 &&
        outcomes.every(
          (outcome) =>
            outcome.kind === 'refused' && learnedDomainMaximum(system, label, outcome.refusal, outcome.request),
        )
      )
        return;
      const charged = won.reduce((sum, value) => sum + (value.costMicro ?? price), 0n);
      if (won.length !== 1)
        throw new CheckMismatch(
          `${label}: ${won.length} of two simultaneous registrations of ${name} accepted (charged ${text(charged)}), expected exactly one`,
        );
      const winner = won[0];
      const loser = outcomes.find((outcome) => outcome.kind === 'refused');
      if (winner === undefined || loser?.kind !== 'refused')
        throw new Error(`${label}: one accepted and one refused, unread`);
      judged(
        system,
        label,
        'domains.refusal.taken',
        'domains.register',
        `${loser.refusal.status} ${loser.refusal.name}`,
        loser.request,
      );
      account.balanceMicro -= winner.costMicro ?? price;
      domains.held.set(name, { holder: 0, domainId: winner.domainId ?? null, costMicro: winner.costMicro ?? price });
      const balance = (await accepted(system, `${label}: balance after`, 'domains.balance', {}, account.apiKey)).value
        .balanceMicro;
      if (balance !== account.balanceMicro)
        throw new CheckMismatch(
          `${label}: balance ${text(balance)} after the race, expected ${text(account.balanceMicro)} (one charge of ${text(winner.costMicro ?? price)})`,
        );
      const owner = (await accepted(system, `${label}: whois`, 'domains.lookup', { domain: name }, null)).value.owner;
      if (owner !== null && owner !== account.agentId)
        throw new CheckMismatch(`${label}: whois names ${owner} the holder, expected ${account.agentId}`);
    },
  );
});

export const DOMAINS_EXTRA_COMMANDS: readonly DialectCommandRow[] = [
  {
    name: 'domainCheck',
    operations: ['domains.check'],
    accounts: 0,
    service: 'domains',
    weight: 2,
    arbitrary: checkCommand,
  },
  {
    name: 'dnsRecords',
    operations: ['domains.dns-add', 'domains.dns-list', 'domains.dns-update', 'domains.dns-delete'],
    accounts: 0,
    service: 'domains',
    weight: 2,
    arbitrary: dnsCommand,
  },
  {
    name: 'domainRace',
    operations: ['domains.register', 'domains.check', 'domains.balance', 'domains.lookup'],
    accounts: 0,
    service: 'domains',
    weight: 2,
    arbitrary: raceCommand,
  },
];
