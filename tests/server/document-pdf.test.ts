import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as fontkit from "fontkit";
import { describe, expect, it } from "vitest";
import { xmpPacket } from "~/documents/pdf-metadata.server";
import { renderDocumentPdf, type PdfDocument } from "~/documents/pdf.server";

// A document's PDF as tools the project does not use read it: qpdf checks its structure, an XML
// parser (Python's) reads its XMP, poppler extracts its words with their boxes.

const awkward = {
  holderName: `राहुल O'Neil & "Sons" <Jr>`,
  title: `Web Development (R&D) <Advanced> "Pro" — विकास`,
  issuer: "O'Neil & Co <Training>",
};

function sample(kind: PdfDocument["kind"], fields: Partial<PdfDocument> = {}): PdfDocument {
  return {
    kind,
    code: "UPS-1234-5678-9ABC-DEFG",
    holderName: "Ananya Sharma",
    title: kind === "certificate" ? "Full Stack Web Development" : "Junior Web Developer",
    description: kind === "certificate" ? "HTML, CSS, JavaScript, React and Node.js." : null,
    issuedOn: "2026-11-26",
    validUntil: null,
    hours: kind === "certificate" ? 120 : null,
    startDate: kind === "certificate" ? null : "2027-01-04",
    location: kind === "certificate" ? null : "Pune",
    pay: kind === "certificate" ? null : { kind: "stipend", amountPaise: 2_500_000, period: "month" },
    replyBy: kind === "certificate" ? null : "2026-12-10",
    paragraphs: kind === "certificate" ? [] : ["We are pleased to offer you this position.", "Welcome!"],
    issuer: {
      name: "Upskill",
      address: "3rd Floor, Sai Complex, Baner Road, Pune",
      email: "hello@upskill.example",
      phone: "+91 98765 43210",
      logo: null,
    },
    signatory: { name: "अमित देशपांडे", title: "Director", image: null },
    verifyUrl: "http://localhost:3000/verify/UPS-1234-5678-9ABC-DEFG",
    ...fields,
  };
}

/** Runs a command-line tool on the PDF written to a file of its own; its standard output. */
function onFile(pdf: Buffer, command: string, args: (file: string) => string[], input?: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "upskill-pdf-"));
  const file = path.join(dir, "document.pdf");
  fs.writeFileSync(file, pdf);
  try {
    return execFileSync(command, args(file), { encoding: "utf8", input });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The XMP packet read by Python's XML parser (expat): the text of each property it carries. */
function parsedXmp(pdf: Buffer): Record<string, string> {
  const xmp = onFile(pdf, "pdfinfo", (file) => ["-meta", file]);
  const script = `
import json, sys, xml.etree.ElementTree as ET
root = ET.fromstring(sys.stdin.buffer.read())
ns = {"rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#", "dc": "http://purl.org/dc/elements/1.1/",
      "xmp": "http://ns.adobe.com/xap/1.0/", "pdf": "http://ns.adobe.com/pdf/1.3/"}
found = {name: root.find(".//" + path, ns) for name, path in {
  "title": "dc:title/rdf:Alt/rdf:li", "creator": "dc:creator/rdf:Seq/rdf:li",
  "description": "dc:description/rdf:Alt/rdf:li", "created": "xmp:CreateDate",
  "creatorTool": "xmp:CreatorTool", "producer": "pdf:Producer"}.items()}
print(json.dumps({name: element.text for name, element in found.items() if element is not None}))
`;
  return JSON.parse(execFileSync("python3", ["-c", script], { input: xmp, encoding: "utf8" })) as Record<
    string,
    string
  >;
}

/** pdfinfo's reading of the document information dictionary. */
function info(pdf: Buffer): Record<string, string> {
  const lines = onFile(pdf, "pdfinfo", (file) => ["-enc", "UTF-8", file]).split("\n");
  return Object.fromEntries(
    lines.map((line) => /^(\w+):\s+(.*)$/.exec(line)).flatMap((m) => (m ? [[m[1], m[2]]] : [])),
  );
}

/** The Metadata stream's dictionary, found from the catalog, as qpdf reads it. */
function metadataDictionary(pdf: Buffer): Record<string, unknown> {
  const json = JSON.parse(onFile(pdf, "qpdf", (file) => ["--json=2", "--json-key=qpdf", file])) as {
    qpdf: [unknown, Record<string, { value?: Record<string, string>; stream?: { dict: Record<string, unknown> } }>];
  };
  const objects = json.qpdf[1];
  const catalog = objects[`obj:${objects.trailer!.value!["/Root"]}`]!.value!;
  return objects[`obj:${catalog["/Metadata"]}`]!.stream!.dict;
}

interface Word {
  text: string;
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
  baseline: number;
}

/**
 * poppler boxes a word from its font's ascent to its descent; the committed fonts give where
 * the baseline falls in that box (both weights of each family share their vertical metrics).
 */
const fontDir = path.resolve("app/documents/fonts");
const ascentShare = Object.fromEntries(
  (["latin", "devanagari"] as const).map((script) => {
    const file = script === "latin" ? "NotoSans-Regular.ttf" : "NotoSansDevanagari-Regular.ttf";
    const font = fontkit.create(fs.readFileSync(path.join(fontDir, file)));
    return [script, font.ascent / (font.ascent - font.descent)];
  }),
) as Record<"latin" | "devanagari", number>;

const devanagari = /[\u0900-\u097f]/;
const entities: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&apos;": "'" };

/** Every word on each page, as `pdftotext -bbox` reads them, with its baseline. */
function pageWords(pdf: Buffer): Word[][] {
  const html = onFile(pdf, "pdftotext", (file) => ["-bbox", file, "-"]);
  return html
    .split("<page ")
    .slice(1)
    .map((page) =>
      [...page.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)].map(
        ([, xMin, yMin, xMax, yMax, text]) => {
          const word = { xMin: +xMin!, yMin: +yMin!, xMax: +xMax!, yMax: +yMax! };
          const share = ascentShare[devanagari.test(text!.charAt(0)) ? "devanagari" : "latin"];
          return {
            ...word,
            text: text!.replace(/&(amp|lt|gt|quot|apos);/g, (entity) => entities[entity]!),
            baseline: word.yMin + (word.yMax - word.yMin) * share,
          };
        },
      ),
    );
}

/** The words of `line`, found in that order one after another among the extracted words. */
function findLine(words: Word[], line: string): Word[] {
  const wanted = line.split(" ");
  for (let start = 0; start + wanted.length <= words.length; start++) {
    const candidate = words.slice(start, start + wanted.length);
    if (candidate.every((word, index) => word.text === wanted[index])) return candidate;
  }
  throw new Error(`"${line}" is not among the words, in that order: ${words.map((word) => word.text).join(" ")}`);
}

/** One baseline (within 1 pt), and each word starting right of where the one before it ends. */
function expectOneLine(words: Word[]) {
  const baselines = words.map((word) => word.baseline);
  expect(Math.max(...baselines) - Math.min(...baselines), words.map((w) => w.text).join(" ")).toBeLessThanOrEqual(1);
  for (let index = 1; index < words.length; index++) {
    expect(words[index]!.xMin, `${words[index - 1]!.text} | ${words[index]!.text}`).toBeGreaterThanOrEqual(
      words[index - 1]!.xMax - 0.01,
    );
  }
}

/** No two words on a page share any ink box area. */
function expectNoOverlap(words: Word[]) {
  for (let i = 0; i < words.length; i++) {
    for (let j = i + 1; j < words.length; j++) {
      const [a, b] = [words[i]!, words[j]!];
      const width = Math.min(a.xMax, b.xMax) - Math.max(a.xMin, b.xMin);
      const height = Math.min(a.yMax, b.yMax) - Math.max(a.yMin, b.yMin);
      expect(width > 0.01 && height > 0.01, `"${a.text}" overlaps "${b.text}"`).toBe(false);
    }
  }
}

describe("a document's PDF", () => {
  for (const kind of ["certificate", "offer-letter"] as const) {
    it(`${kind}: passes qpdf --check, and its XMP and properties read back exactly with & < > " ' and Devanagari`, async () => {
      const pdf = await renderDocumentPdf(
        sample(kind, {
          holderName: awkward.holderName,
          title: awkward.title,
          issuer: { ...sample(kind).issuer, name: awkward.issuer },
        }),
      );
      expect(onFile(pdf, "qpdf", (file) => ["--check", file])).toContain("No syntax or stream encoding errors found");

      const what = kind === "certificate" ? "Certificate" : "Offer letter";
      expect(parsedXmp(pdf)).toEqual({
        title: `${what}: ${awkward.title}`,
        creator: awkward.issuer,
        description: `${awkward.holderName}, UPS-1234-5678-9ABC-DEFG`,
        created: "2026-11-26T00:00:00Z",
        creatorTool: awkward.issuer,
        producer: "PDFKit",
      });
      expect(info(pdf)).toMatchObject({
        Title: `${what}: ${awkward.title}`,
        Author: awkward.issuer,
        Subject: `${awkward.holderName}, UPS-1234-5678-9ABC-DEFG`,
        Creator: awkward.issuer,
      });
      // The stream's dictionary has its length once, under the name PDF gives it.
      expect(Object.keys(metadataDictionary(pdf)).sort()).toEqual(["/Length", "/Subtype", "/Type"]);
    });
  }

  it("XMP: any text, control characters and lone surrogates included, still parses and keeps the rest", () => {
    const title = `A\u0001B\u0008C\uD800D\uFFFE & <x> "q" 'a' विकास \u{1F393}`;
    const packet = xmpPacket(
      { title, author: "A", subject: "S", creator: "C", created: new Date("2026-11-26T00:00:00Z") },
      "PDFKit",
    );
    const script = `
import sys, xml.etree.ElementTree as ET
root = ET.fromstring(sys.stdin.buffer.read())
print(root.find(".//{http://purl.org/dc/elements/1.1/}title//{http://www.w3.org/1999/02/22-rdf-syntax-ns#}li").text, end="")
`;
    expect(execFileSync("python3", ["-c", script], { input: packet, encoding: "utf8" })).toBe(
      `ABCD & <x> "q" 'a' विकास \u{1F393}`,
    );
  });

  it("certificate: a description mixing Latin and Devanagari sits on one line, its runs side by side, read in order", async () => {
    const description = "HTML, CSS, JavaScript. हिन्दी पाठ्यक्रम भी।";
    const pdf = await renderDocumentPdf(sample("certificate", { holderName: "राहुल O'Neil", description }));
    const [words] = pageWords(pdf);
    expectNoOverlap(words!);
    expectOneLine(findLine(words!, description));
    expectOneLine(findLine(words!, "राहुल O'Neil"));
  });

  it("certificate: a long mixed description wraps within its box into two lines, then ends in …", async () => {
    const sentence = "Pandas, SQL और charts के साथ विकास परियोजना, with a capstone project.";
    const pdf = await renderDocumentPdf(sample("certificate", { description: `${sentence} ${sentence}` }));
    const [words] = pageWords(pdf);
    expectNoOverlap(words!);
    const first = findLine(words!, "Pandas, SQL");
    const description = words!.slice(words!.indexOf(first[0]!)).filter((word) => word.yMin < first[0]!.yMax + 40);
    const lines = Map.groupBy(description, (word) => Math.round(word.baseline));
    expect(lines.size).toBe(2);
    for (const line of lines.values()) {
      expectOneLine(line);
      expect(line[0]!.xMin).toBeGreaterThanOrEqual(120);
      expect(line.at(-1)!.xMax).toBeLessThanOrEqual(841.89 - 120);
    }
    expect(description.map((word) => word.text).join(" ")).toBe(`${sentence} ${sentence}`);

    // Four times as long: cut after the second line, which says so.
    const long = await renderDocumentPdf(sample("certificate", { description: Array(4).fill(sentence).join(" ") }));
    const [longWords] = pageWords(long);
    const cut = longWords!.slice(longWords!.indexOf(findLine(longWords!, "Pandas, SQL")[0]!));
    const shown = cut.filter((word) => word.yMin < first[0]!.yMax + 40);
    expect(new Set(shown.map((word) => Math.round(word.baseline))).size).toBe(2);
    expect(shown.at(-1)!.text).toMatch(/…$/);
  });

  it("offer letter: a body longer than a page goes on to the next, within the margins, in order", async () => {
    const paragraphs = Array.from(
      { length: 16 },
      (_, index) =>
        `Paragraph ${index + 1}: mentoring at विकास केंद्र, code review and weekly demos with the JavaScript team and the design group.`,
    );
    const pdf = await renderDocumentPdf(sample("offer-letter", { paragraphs }));
    const pages = pageWords(pdf);
    expect(pages.length).toBe(2);
    for (const words of pages) {
      expectNoOverlap(words);
      for (const word of words) expect(word.yMax).toBeLessThanOrEqual(841.89 - 56);
    }
    const text = pages
      .flat()
      .map((word) => word.text)
      .join(" ");
    for (const paragraph of paragraphs) expect(text).toContain(paragraph);
  });

  it("offer letter: the greeting and the subject keep Devanagari on the Latin baseline, and copy as typed", async () => {
    const pdf = await renderDocumentPdf(
      sample("offer-letter", {
        holderName: "राहुल O'Neil",
        title: "Junior विकास Developer",
        paragraphs: ["Your mentor at विकास केंद्र, Pune, will be श्री अमित देशपांडे, who leads the JavaScript team there."],
      }),
    );
    const [words] = pageWords(pdf);
    expectNoOverlap(words!);
    expectOneLine(findLine(words!, "Dear राहुल O'Neil,"));
    expectOneLine(findLine(words!, "Subject: Offer for the position of Junior विकास Developer"));
    expectOneLine(findLine(words!, "Your mentor at विकास केंद्र, Pune,"));
    const text = onFile(pdf, "pdftotext", (file) => [file, "-"]);
    expect(text).toContain("विकास केंद्र");
    expect(text).not.toContain("िवकास");
  });
});
