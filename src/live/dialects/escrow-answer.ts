/**
 * Reading one escrow as an answer shows it (a creation, a detail, a list element): its id, its
 * status (as the dialect names it), its amount and the fee it states, under each dialect's names.
 */
import type { EscrowRelease, EscrowView } from '../operations.ts';
import type { WireReader } from '../wire-reader.ts';

export interface EscrowNames {
  /** The amount's field and, where the dialect renames it, the documents' name. */
  readonly amount: string;
  readonly amountDocuments?: string;
  /** The fee's field (the deployment's `commission_usd`) and, where renamed, the documents' name. */
  readonly fee: string;
  readonly feeDocuments?: string;
}

/** The status as the dialect names it (optional: an answer without it is still read). */
export function readEscrowStatus(reader: WireReader): string | null {
  return reader.string('status', { optional: true });
}

/** The read of an answer that only moves an escrow (release, refund, dispute): its status; `known`, the other fields it carries. */
export function statusAnswer(...known: string[]): (reader: WireReader) => { status: string | null } {
  return (reader) => {
    reader.knows(...known);
    return { status: readEscrowStatus(reader) };
  };
}

/**
 * The read of a release's answer: its status, and the fee (`fee`) and net (`net`) it states under
 * the dialect's names, each read only where present (a release that states neither is not a
 * deviation; the check holds what it states to the creation's fee); `known`, the other fields.
 */
export function releaseAnswer(
  names: { readonly fee: string; readonly net: string },
  ...known: string[]
): (reader: WireReader) => EscrowRelease {
  return (reader) => {
    reader.knows(...known);
    return {
      status: readEscrowStatus(reader),
      feeMicro: reader.has(names.fee) ? reader.money(names.fee) : null,
      netMicro: reader.has(names.net) ? reader.money(names.net) : null,
    };
  };
}

export function readEscrowView(reader: WireReader, names: EscrowNames): EscrowView | null {
  const escrowId = reader.string('escrow_id');
  const status = readEscrowStatus(reader);
  const amountMicro = reader.money(
    names.amount,
    names.amountDocuments === undefined ? { optional: true } : { documents: names.amountDocuments, optional: true },
  );
  const feeMicro = reader.money(
    names.fee,
    names.feeDocuments === undefined ? { optional: true } : { documents: names.feeDocuments, optional: true },
  );
  return escrowId === null ? null : { escrowId, status, amountMicro, feeMicro };
}

/** The elements of a list answer's `escrows`, each read as one escrow; null when the list is absent. */
export function readEscrowList(
  reader: WireReader,
  names: EscrowNames,
  known: readonly string[],
): { escrows: EscrowView[] } | null {
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
