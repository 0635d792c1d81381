import type { Db } from "../db/client";
import { formatDollars } from "../shared/money";
import { statementBatches, type StatementFilter, type StatementRow } from "./statement";

/**
 * The statement as CSV (RFC 4180: comma-separated, CRLF line ends, fields with a quote, comma or
 * line break quoted, quotes doubled; a semicolon or a tab too, which spreadsheets of many locales
 * split a line at: unquoted, "Bob;=cmd" would put a formula at the start of a cell of its own). One header row, then one line per statement row, newest
 * first like the statement itself. Amounts are dollars with 2 decimals written from integer
 * cents (formatDollars), never through a float.
 */
export const CSV_COLUMNS = ["date", "kind", "amount", "counterparty", "program", "level", "balance_after", "request_id", "transaction_id"] as const;

const NEEDS_QUOTES = /[",;\t\r\n]/;
/** What a spreadsheet would take for the start of a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A field of text: quoted when it must be, and never read as a formula (a leading apostrophe). */
export function textField(value: string | null | undefined): string {
  if (value === null || value === undefined) return "";
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** A field the server writes itself from a number: kept as is, so "-18.40" stays a number. */
const numberField = (value: bigint | number | null) => (value === null ? "" : typeof value === "bigint" ? formatDollars(value) : String(value));

export const csvHeader = () => `${CSV_COLUMNS.join(",")}\r\n`;

export function csvLine(row: StatementRow): string {
  return `${[
    textField(row.createdAt.toISOString()),
    textField(row.kind),
    numberField(row.amount),
    textField(row.counterparty?.name),
    textField(row.program),
    numberField(row.level),
    numberField(row.balanceAfter),
    textField(row.requestId),
    textField(row.id),
  ].join(",")}\r\n`;
}

/**
 * The whole filtered statement as CSV text, in chunks: the header, then one chunk per batch of
 * rows (statementBatches), so the server can stream it without building one string.
 */
export async function* statementCsv(db: Db, userId: string, filter: StatementFilter = {}, batchSize?: number): AsyncGenerator<string> {
  yield csvHeader();
  for await (const rows of statementBatches(db, userId, filter, batchSize)) yield rows.map(csvLine).join("");
}
