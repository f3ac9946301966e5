/**
 * The entries held by the write-ahead frames the open drops (wal-scan.ts), so that a torn WAL says
 * how many entries it lost, as a log that ends early does (issue 69 part 6). Why: each batch
 * writes its entries and its tail row (log-tail.ts) in one transaction, so a torn WAL's lost
 * frames took both with them; the database keeps the older tail row, which the log matches, and
 * nothing said that entries were gone.
 * Two witnesses in the dropped frames, the higher wins: the tail row on `log_tail`'s page, and the
 * highest `seq` among cells shaped as a `commands` row (the rowid is the seq; columns NULL, an
 * integer, two texts, a text or NULL: a checkpoint's row has a BLOB there). The tail row's page is
 * often the transaction's last frame (SQLite writes a commit's pages in page order, and a small
 * log's `commands` leaf comes first), the one a cut tears; the `commands` leaf before it is whole.
 * Pages are read as SQLite writes a table b-tree leaf (sqlite.org/fileformat.html, "B-tree Pages",
 * "Record Format"): header byte 0x0d, the cell count, the cell pointers, each cell a payload length,
 * the rowid and the record (its header of serial types, then the values). Only frames whose
 * checksums hold are read (wal-scan.ts `uncommitted`); a page of any other shape says nothing.
 * Limits: every offset is checked against the page's length before it is read.
 */
import type { DatabaseSync } from 'node:sqlite';
import type { WalFrame } from './wal-scan.ts';

const LEAF_TABLE_PAGE = 0x0d;
const CELL_POINTERS_AT = 8;
const VARINT_BYTES_MAX = 9;
/** Serial types of integers: their width in bytes (sqlite.org/fileformat.html, "Serial Type Codes"); 8 and 9 are the constants 0 and 1. */
const INTEGER_WIDTHS: Readonly<Record<number, number>> = { 1: 1, 2: 2, 3: 3, 4: 4, 5: 6, 6: 8, 8: 0, 9: 0 };
const NULL_TYPE = 0;
const TEXT_TYPES_FROM = 13;

interface Cell {
  readonly rowid: number;
  /** The record's serial types, one a column. */
  readonly types: readonly number[];
  /** Where the record's values start. */
  readonly body: number;
}

/** The highest entry the dropped `frames` held (the tail row, or a `commands` row); null where none holds one. */
export function walPromisedSeq(db: DatabaseSync, frames: readonly WalFrame[]): number | null {
  const row = db.prepare("SELECT rootpage FROM sqlite_master WHERE type = 'table' AND name = 'log_tail'").get() as
    | { rootpage: number | bigint }
    | undefined;
  const tailPage = row === undefined ? null : Number(row.rootpage);
  let highest: number | null = null;
  for (const frame of frames) {
    // Page 1 opens with the database header and holds the schema: no entry there.
    if (frame.page <= 1) continue;
    const seqs = frame.page === tailPage ? [tailSeqOfPage(frame.bytes)] : commandSeqsOfPage(frame.bytes);
    for (const seq of seqs) if (seq !== null && (highest === null || seq > highest)) highest = seq;
  }
  return highest;
}

/** The `seq` of the tail row on its leaf page; null where the page is not one cell of rowid 1 holding (NULL, integer). */
export function tailSeqOfPage(page: Buffer): number | null {
  const cells = leafCells(page);
  const cell = cells?.length === 1 ? cells[0] : undefined;
  if (cell === undefined || cell.rowid !== 1 || cell.types.length !== 2 || cell.types[0] !== NULL_TYPE) return null;
  const type = cell.types[1] as number;
  const width = INTEGER_WIDTHS[type];
  if (width === undefined || cell.body + width > page.length) return null;
  if (width === 0) return type === 9 ? 1 : null;
  const seq = width === 8 ? Number(page.readBigInt64BE(cell.body)) : page.readIntBE(cell.body, width);
  return Number.isSafeInteger(seq) && seq > 0 ? seq : null;
}

/** The rowids (seqs) of the cells on `page` shaped as `commands` rows; none where it is not a table leaf. */
export function commandSeqsOfPage(page: Buffer): number[] {
  const isText = (type: number | undefined): boolean => type !== undefined && type >= TEXT_TYPES_FROM && type % 2 === 1;
  return (leafCells(page) ?? [])
    .filter(
      ({ types }) =>
        types.length >= 5 &&
        types[0] === NULL_TYPE &&
        INTEGER_WIDTHS[types[1] as number] !== undefined &&
        isText(types[2]) &&
        isText(types[3]) &&
        (types[4] === NULL_TYPE || isText(types[4])),
    )
    .map((cell) => cell.rowid)
    .filter((seq) => seq > 0);
}

/** The cells of a table b-tree leaf page; null where it is not one or a cell runs past it. */
function leafCells(page: Buffer): Cell[] | null {
  if (page.length < CELL_POINTERS_AT || page[0] !== LEAF_TABLE_PAGE) return null;
  const count = page.readUInt16BE(3);
  if (CELL_POINTERS_AT + count * 2 > page.length) return null;
  const cells: Cell[] = [];
  for (let index = 0; index < count; index++) {
    const cell = cellAt(page, page.readUInt16BE(CELL_POINTERS_AT + index * 2));
    if (cell === null) return null;
    cells.push(cell);
  }
  return cells;
}

/** A table leaf cell at `at`: its rowid and its record's serial types; null where it runs past the page. */
function cellAt(page: Buffer, at: number): Cell | null {
  const payload = varint(page, at);
  const rowid = payload === null ? null : varint(page, payload.next);
  const headerLength = rowid === null ? null : varint(page, rowid.next);
  if (rowid === null || headerLength === null) return null;
  const body = rowid.next + headerLength.value;
  if (body > page.length) return null;
  const types: number[] = [];
  for (let next = headerLength.next; next < body;) {
    const type = varint(page, next);
    if (type === null) return null;
    types.push(type.value);
    next = type.next;
  }
  return { rowid: rowid.value, types, body };
}

/** A varint at `at` (1 to 9 bytes, big-endian, 7 bits a byte but the ninth's 8); null past the page. */
function varint(page: Buffer, at: number): { readonly value: number; readonly next: number } | null {
  let value = 0;
  for (let index = 0; index < VARINT_BYTES_MAX; index++) {
    const byte = page[at + index];
    if (byte === undefined) return null;
    if (index === VARINT_BYTES_MAX - 1) return { value: value * 256 + byte, next: at + VARINT_BYTES_MAX };
    value = value * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) return { value, next: at + index + 1 };
  }
  return null;
}
