import { Readable, Transform, pipeline } from "node:stream";
import { stringify } from "csv-stringify";
import type { Logger } from "~/logging/logger.server";
import { yieldToEventLoop } from "./heavy-reports.server";

export interface CsvOptions {
  logger?: Logger;
  onEnd?: () => void;
}

export interface CsvColumn {
  key: string;
  header: string;
}

/** Gathers the CSV's small per-record chunks into pieces of about this size (each is compressed and flushed alone). */
const pieceBytes = 64 * 1024;

function coalesce(): Transform {
  let held: Buffer[] = [];
  let size = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      held.push(chunk);
      size += chunk.length;
      if (size < pieceBytes) return done();
      const piece = Buffer.concat(held, size);
      held = [];
      size = 0;
      done(null, piece);
    },
    flush(done) {
      done(null, size > 0 ? Buffer.concat(held, size) : undefined);
    },
  });
}

/** Records made and written between two turns of the event loop: about a millisecond's work. */
const recordsPerTurn = 100;

/**
 * The records as they come, with a turn of the event loop after every `recordsPerTurn`: a
 * stream's own steps are microtasks, so a long download read by a fast reader would otherwise
 * keep the loop from every other request until its end.
 */
async function* takingTurns(records: Iterable<object> | AsyncIterable<object>): AsyncGenerator<object> {
  let made = 0;
  for await (const record of records) {
    yield record;
    if (++made % recordsPerTurn === 0) await yieldToEventLoop();
  }
}

/**
 * Records as CSV bytes, the one CSV writer of the app: UTF-8 with a BOM (so spreadsheets read it
 * as UTF-8), a header row, CRLF lines, every cell that holds a comma, a quote, a CR or an LF in
 * quotes (RFC 4180), and every cell that starts with =, +, -, @, tab or carriage return
 * prefixed with a single quote, so that a spreadsheet shows it as text instead of running it
 * as a formula. Records are pulled only as the reader takes the bytes (Node
 * streams' backpressure), and a reader that stops (a client that left) stops the source.
 * `onEnd` is called once the stream has ended, read to its end or not.
 */
export function csvStream(
  records: Iterable<object> | AsyncIterable<object>,
  columns: readonly CsvColumn[],
  { logger, onEnd }: CsvOptions = {},
): ReadableStream<Uint8Array> {
  const csv = stringify({
    bom: true,
    header: true,
    columns: columns.map((c) => ({ key: c.key, header: c.header })),
    escape_formulas: true,
    record_delimiter: "windows",
    // Once the delimiter is set, csv-stringify quotes a cell for CRLF only: a lone LF or CR (an
    // older row's name may hold one) would end the row for every reader.
    quote_record_delimiter: true,
  });
  const out = pipeline(Readable.from(takingTurns(records)), csv, coalesce(), (error) => {
    // A client that left early is routine; anything else is worth a line.
    if (error && error.code !== "ERR_STREAM_PREMATURE_CLOSE") logger?.error({ err: error }, "CSV download failed");
    onEnd?.();
  });
  return Readable.toWeb(out) as ReadableStream<Uint8Array>;
}

/** A CSV download: the stream above as an attachment named `fileName`, never cached. */
export function csvResponse(
  records: Iterable<object> | AsyncIterable<object>,
  columns: readonly CsvColumn[],
  fileName: string,
  options: CsvOptions = {},
): Response {
  return new Response(csvStream(records, columns, options), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${fileName}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
