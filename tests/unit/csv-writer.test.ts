import { describe, expect, it } from "vitest";
import { csvStream } from "~/core/csv.server";

/** The writer's bytes for one record of these cells, as text with its byte-order mark. */
async function written(cells: string[]): Promise<string> {
  const record = Object.fromEntries(cells.map((cell, i) => [`c${i}`, cell]));
  const columns = cells.map((_, i) => ({ key: `c${i}`, header: `c${i}` }));
  const bytes = await new Response(csvStream([record], columns)).arrayBuffer();
  return new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
}

describe("the CSV writer every export uses", () => {
  it("quotes every cell that holds a comma, a quote, a CR or an LF (RFC 4180), and no other", async () => {
    const cells = ["a,b", 'say "hi"', "one\ntwo", "one\rtwo", "one\r\ntwo", "plain", "राहुल", "with space", ""];
    expect(await written(cells)).toBe(
      "\ufeffc0,c1,c2,c3,c4,c5,c6,c7,c8\r\n" +
        '"a,b","say ""hi""","one\ntwo","one\rtwo","one\r\ntwo",plain,राहुल,with space,\r\n',
    );
  });

  it("puts a quote before a cell a spreadsheet would run as a formula, and quotes it when it must", async () => {
    expect(await written(["=1+1", "+91", "-2", "@x", "\tTab", '=HYPERLINK("a","b")', "=1\n2"])).toBe(
      "\ufeffc0,c1,c2,c3,c4,c5,c6\r\n" + `'=1+1,'+91,'-2,'@x,'\tTab,"'=HYPERLINK(""a"",""b"")","'=1\n2"\r\n`,
    );
  });
});
