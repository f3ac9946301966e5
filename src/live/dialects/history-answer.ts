/**
 * Reading a page of bet history: both the documents' style B history and the deployment's list
 * the account's bets as `bets: [{ id, … }]`, newest first (casino.md style B `GET /history`,
 * DEPLOYED.md §2.9). Only the ids are read: each bet is audited on its own (`casino.audit`).
 * An element without a string `id` is recorded on the reader and left out.
 */
import type { WireReader } from '../wire-reader.ts';

/** The ids of `bets`, in the answer's order; null when `bets` is not a list. */
export function readBetIds(reader: WireReader): string[] | null {
  const bets = reader.array('bets');
  if (bets === null) return null;
  return bets.flatMap((bet, index) => {
    const id = reader.nested(bet, `bets[${index}]`).string('id');
    return id === null ? [] : [id];
  });
}
