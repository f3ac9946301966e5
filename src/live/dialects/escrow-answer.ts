/**
 * Reading one escrow as an answer shows it (a creation, a detail, a list element), in afp's terms:
 * its id, its status and its amount, under the names each dialect gives them. A dialect whose
 * state names differ from afp's (the deployment's `funded` for afp's `locked`) passes its table of
 * documented state names: the state is translated and the difference recorded as a documented
 * deviation, so a replay compares states, not spellings.
 */
import type { EscrowView } from '../operations.ts';
import type { WireReader } from '../wire-reader.ts';

export interface EscrowNames {
  /** The amount's field and, where the dialect renames it, the documents' name. */
  readonly amount: string;
  readonly amountDocuments?: string;
  /** Dialect state → afp's state, for states the dialect names otherwise. */
  readonly states?: Readonly<Record<string, string>>;
}

/** The status in afp's terms; a documented rename is recorded on the reader. */
export function readEscrowStatus(reader: WireReader, states: Readonly<Record<string, string>> = {}): string | null {
  const status = reader.string('status', { optional: true });
  if (status === null || !Object.hasOwn(states, status)) return status;
  const documents = states[status] as string;
  reader.record({ kind: 'renamed', field: `status=${status}`, expected: `status=${documents}`, seen: `status=${status}`, documented: true, required: false });
  return documents;
}

export function readEscrowView(reader: WireReader, names: EscrowNames): EscrowView | null {
  const escrowId = reader.string('escrow_id');
  const status = readEscrowStatus(reader, names.states);
  const amountMicro = reader.money(names.amount, names.amountDocuments === undefined ? { optional: true } : { documents: names.amountDocuments, optional: true });
  return escrowId === null ? null : { escrowId, status, amountMicro };
}

/** The elements of a list answer's `escrows`, each read as one escrow; null when the list is absent. */
export function readEscrowList(reader: WireReader, names: EscrowNames, known: readonly string[]): { escrows: EscrowView[] } | null {
  const list = reader.array('escrows');
  reader.knows('count');
  if (list === null) return null;
  const escrows = list.flatMap((item, index) => {
    const element = reader.nested(item, `escrows[${index}]`).knows(...known);
    const view = readEscrowView(element, names);
    return view === null ? [] : [view];
  });
  return { escrows };
}
