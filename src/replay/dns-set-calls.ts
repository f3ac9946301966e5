/**
 * Style A's DNS upsert on a target that has none: a deployment adds, updates and deletes one
 * record at a time (DEPLOYED.md §7, `/v1/dns/records`), while `POST /api/v1/dns` replaces a whole
 * set per (type, name) — two MX records of `www` in one call. Here `domains.dns-set` is asked the
 * target's way: the domain's live records are read (`domains.dns-list`, by the id its live
 * registration answered), each named set is brought to the recorded one record by record
 * (`dnsSetPlan`: a record whose value stays keeps its id and has its TTL updated; a value replaced
 * updates a record of the same priority in place; what is left is deleted, then what is new
 * added), and the live set after the calls is read again (`domains.dns-records`): that is the
 * operation's answer, compared with the record set the recording answered (set-compare.ts), never
 * the wire.
 * A refusal ends the calls and is the answer: what the calls before it changed stays (a deployment
 * has no transaction); a domain whose id is unknown (never registered on the target by the
 * replay) cannot be asked (`unsupported`, the replay skips it with that reason).
 * Bounds: at most DNS_LIMITS.recordsPerRequest records asked (more is `unsupported`), so at most
 * that many calls per set named plus one per record the target lists there, and two reads.
 */
import type {
  CallOptions,
  CallOutcome,
  LiveSession,
  DnsInput,
  DnsView,
  OperationInput,
  OperationName,
  OperationResult,
} from '../live.ts';
import { DNS_LIMITS } from '../services/domains/dns-records.ts';
import type { RecordedExchange } from './record-format.ts';

/** One call of the plan. */
export type DnsStep =
  | { readonly kind: 'update'; readonly recordId: string; readonly content: string; readonly ttl: number }
  | { readonly kind: 'delete'; readonly recordId: string }
  | { readonly kind: 'add'; readonly record: DnsInput };

/** What a target needs to be asked a DNS set one record at a time. */
const RECORD_OPERATIONS: readonly OperationName[] = [
  'domains.dns-list',
  'domains.dns-records',
  'domains.dns-add',
  'domains.dns-update',
  'domains.dns-delete',
];

const setKey = (record: { type: string | null; name: string | null }): string => `${record.type}\n${record.name}`;

/** The (type, name) sets of `wanted`, in the order first named. */
function setsOf(wanted: readonly DnsInput[]): Map<string, DnsInput[]> {
  const sets = new Map<string, DnsInput[]>();
  for (const record of wanted) sets.set(setKey(record), [...(sets.get(setKey(record)) ?? []), record]);
  return sets;
}

/**
 * The calls that make each set `wanted` names equal to it on a domain holding `held` (the other
 * sets untouched): updates first, then deletes, then adds, so a replaced CNAME never meets its
 * successor and a full domain makes room before it grows. Pure.
 */
export function dnsSetPlan(held: readonly DnsView[], wanted: readonly DnsInput[]): DnsStep[] {
  const updates: DnsStep[] = [];
  const deletes: DnsStep[] = [];
  const adds: DnsStep[] = [];
  for (const [key, desired] of setsOf(wanted)) {
    const current = held.filter((record) => setKey(record) === key);
    const kept = new Set<DnsView>();
    const fresh: DnsInput[] = [];
    for (const record of desired) {
      const same = current.find((one) => one.content === record.content && !kept.has(one));
      if (same === undefined) {
        fresh.push(record);
        continue;
      }
      kept.add(same);
      // An update keeps the priority: another priority is the record deleted and added again.
      if ((same.priority ?? null) !== record.priority) {
        deletes.push({ kind: 'delete', recordId: same.recordId });
        adds.push({ kind: 'add', record });
      } else if (same.ttl !== record.ttl)
        updates.push({ kind: 'update', recordId: same.recordId, content: record.content, ttl: record.ttl });
    }
    const removed = current.filter((one) => !kept.has(one));
    for (const record of fresh) {
      const index = removed.findIndex((one) => (one.priority ?? null) === record.priority);
      const replaced = index < 0 ? undefined : removed.splice(index, 1)[0];
      if (replaced === undefined) adds.push({ kind: 'add', record });
      else updates.push({ kind: 'update', recordId: replaced.recordId, content: record.content, ttl: record.ttl });
    }
    for (const one of removed) deletes.push({ kind: 'delete', recordId: one.recordId });
  }
  return [...updates, ...deletes, ...adds];
}

/** The note a DNS set asked record by record files (once per operation: the findings count the rest). */
export function askedByRecords(exchange: RecordedExchange): {
  id: string;
  kind: 'shape';
  title: string;
  evidence: string;
} {
  return {
    id: 'replay:by-records:domains.dns-set',
    kind: 'shape',
    title:
      "domains.dns-set: the target sets no record set in one call (a deployment adds, updates and deletes one record at a time, DEPLOYED.md §7): the domain's records are read, each named set brought to the recorded one record by record, and the set after the calls compared with the recorded answer's",
    evidence: `${exchange.request.method} ${exchange.request.path}`,
  };
}

/** Whether the target offers `op`, counting a DNS set it is asked one record at a time; why not, or null. */
export function offersOperation(session: LiveSession, op: OperationName): string | null {
  const offered = session.offers(op);
  if (offered === null || op !== 'domains.dns-set') return offered;
  return RECORD_OPERATIONS.map((one) => session.offers(one)).find((why) => why !== null) ?? null;
}

/** `op` sent to the target: a DNS set the target's dialect has no call for is asked record by record. */
export function sendOperation<O extends OperationName>(
  session: LiveSession,
  op: O,
  input: OperationInput<O>,
  apiKey: string | null,
  options: CallOptions,
): Promise<CallOutcome<OperationResult<O>>> {
  if (op !== 'domains.dns-set' || session.row(op) !== null) return session.call(op, input, apiKey, options);
  const set = input as OperationInput<'domains.dns-set'>;
  return setOneByOne(session, set, apiKey, options) as Promise<CallOutcome<OperationResult<O>>>;
}

type SetOutcome = CallOutcome<OperationResult<'domains.dns-set'>>;

/** Any outcome that is not an answer read: it ends the set as it is. */
function ended<R>(outcome: CallOutcome<R>): SetOutcome | null {
  return outcome.kind === 'ok' ? null : outcome;
}

/** One step of the plan sent. */
function stepCall(
  session: LiveSession,
  domainId: string,
  step: DnsStep,
  apiKey: string | null,
  options: CallOptions,
): Promise<CallOutcome<unknown>> {
  if (step.kind === 'add') return session.call('domains.dns-add', { domainId, record: step.record }, apiKey, options);
  if (step.kind === 'update') return session.call('domains.dns-update', step, apiKey, options);
  return session.call('domains.dns-delete', step, apiKey, options);
}

async function setOneByOne(
  session: LiveSession,
  input: OperationInput<'domains.dns-set'>,
  apiKey: string | null,
  options: CallOptions,
): Promise<SetOutcome> {
  const { domainId } = input;
  if (domainId === null)
    return {
      kind: 'unsupported',
      reason: `a deployment sets DNS records by domain id, and no id of ${input.domain} is known (the replay never registered it there)`,
    };
  if (input.records.length > DNS_LIMITS.recordsPerRequest)
    return { kind: 'unsupported', reason: `at most ${DNS_LIMITS.recordsPerRequest} records are set in one call` };
  const held = await session.call('domains.dns-list', { domainId }, apiKey, options);
  if (held.kind !== 'ok') return held;
  for (const step of dnsSetPlan(held.value.records, input.records)) {
    const end = ended(await stepCall(session, domainId, step, apiKey, options));
    if (end !== null) return end;
  }
  // The set after the calls, read as the documents' read of a name's records is (set-compare.ts compares it).
  return session.call('domains.dns-records', { domain: input.domain, domainId }, apiKey, options);
}
