import { Readable } from "node:stream";
import { parse, CsvError } from "csv-parse";
import { importColumns, importLimits, importMessages, type ImportColumn } from "./import-types";

/** One data row of the file, as read: its line number and its cells under the known columns. */
export interface ImportRow {
  line: number;
  values: Record<ImportColumn, string>;
}

export type ParsedFile =
  { ok: true; rows: ImportRow[]; extraColumns: string[] } | { ok: false; status: 400 | 413 | 415; message: string };

class FileProblem extends Error {
  constructor(
    readonly status: 400 | 413 | 415,
    message: string,
  ) {
    super(message);
  }
}

const formulaEscaped = /^'[=+\-@\t\r]/;

/** A cell as typed: trimmed, and without the quote an export put before a formula-like text. */
function cellValue(raw: string | undefined): string {
  const value = (raw ?? "").trim();
  return formulaEscaped.test(value) ? value.slice(1) : value;
}

/** Why csv-parse refused the file, in words. */
function csvProblem(error: CsvError): string {
  switch (error.code) {
    case "CSV_QUOTE_NOT_CLOSED":
      return "a quoted cell is never closed";
    case "CSV_INVALID_CLOSING_QUOTE":
    case "CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE":
      return "a quote is in the wrong place; put quotes around the whole cell";
    case "CSV_MAX_RECORD_SIZE":
      return `a row is longer than ${importLimits.maxRowChars.toLocaleString("en-IN")} characters`;
    default:
      return "it cannot be read";
  }
}

/**
 * Reads an uploaded CSV file: UTF-8 (a byte-order mark is fine; anything that is not UTF-8 is
 * refused, with UTF-16 named), its first row naming the columns (any letter case, any order;
 * missing ones refused, extra ones reported and ignored), then at most `maxRows` data rows.
 * Blank rows are left out; every row keeps its line number in the file. Streams the bytes
 * through a strict UTF-8 decoder into csv-parse and stops at the first row too many.
 */
export async function parseLearnerFile(file: Blob): Promise<ParsedFile> {
  if (file.size > importLimits.maxFileBytes) return { ok: false, status: 413, message: importMessages.tooLarge };
  const head = new Uint8Array(await file.slice(0, 4096).arrayBuffer());
  if (head.length === 0) return { ok: false, status: 400, message: importMessages.empty };
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff) || head.includes(0)) {
    // A UTF-16 file (with or without its mark) is full of zero bytes, which no CSV text has.
    return { ok: false, status: 415, message: importMessages.utf16 };
  }
  const text = file.stream().pipeThrough(new TextDecoderStream("utf-8", { fatal: true }));
  const parser = parse({
    bom: true,
    info: true,
    relax_column_count: true,
    record_delimiter: ["\r\n", "\n", "\r"],
    max_record_size: importLimits.maxRowChars,
  });
  const source = Readable.fromWeb(text as import("node:stream/web").ReadableStream<string>);
  source.on("error", (error) => parser.destroy(error));
  source.pipe(parser);

  let header: Map<ImportColumn, number> | null = null;
  let extraColumns: string[] = [];
  const rows: ImportRow[] = [];
  let lastLine = 0;
  // csv-parse counts a CRLF inside a quoted cell as two lines; this puts the count right.
  let doubleCounted = 0;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      const line = lastLine + 1;
      for (const cell of record) doubleCounted += cell.split("\r\n").length - 1;
      lastLine = info.lines - doubleCounted;
      if (record.every((cell) => cell.trim() === "")) continue;
      if (!header) {
        ({ header, extraColumns } = readHeader(record));
        continue;
      }
      if (rows.length === importLimits.maxRows) throw new FileProblem(413, importMessages.tooManyRows);
      const values = Object.fromEntries(
        importColumns.map((column) => [column, cellValue(record[header!.get(column)!])]),
      ) as Record<ImportColumn, string>;
      rows.push({ line, values });
    }
  } catch (error) {
    source.destroy();
    parser.destroy();
    if (error instanceof FileProblem) return { ok: false, status: error.status, message: error.message };
    if (error instanceof CsvError) {
      return { ok: false, status: 400, message: importMessages.notCsv(lastLine + 1, csvProblem(error)) };
    }
    // The strict decoder's refusal: bytes that are not UTF-8.
    if (error instanceof TypeError) return { ok: false, status: 415, message: importMessages.notUtf8 };
    throw error;
  }
  if (!header) return { ok: false, status: 400, message: importMessages.empty };
  if (rows.length === 0) return { ok: false, status: 400, message: importMessages.noRows };
  return { ok: true, rows, extraColumns };
}

function readHeader(record: string[]): { header: Map<ImportColumn, number>; extraColumns: string[] } {
  const header = new Map<ImportColumn, number>();
  const extraColumns: string[] = [];
  record.forEach((raw, index) => {
    const name = raw.trim().toLowerCase();
    if ((importColumns as readonly string[]).includes(name)) {
      if (header.has(name as ImportColumn)) throw new FileProblem(400, importMessages.duplicateColumn(name));
      header.set(name as ImportColumn, index);
    } else if (name) {
      extraColumns.push(raw.trim().slice(0, 100));
    }
  });
  const missing = importColumns.filter((column) => !header.has(column));
  if (missing.length > 0) throw new FileProblem(400, importMessages.missingColumns(missing));
  return { header, extraColumns: extraColumns.slice(0, 50) };
}
