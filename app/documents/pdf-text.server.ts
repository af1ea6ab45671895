import fs from "node:fs";
import path from "node:path";
import * as fontkit from "fontkit";

// Text on a document's PDF, laid out run by run: a line is cut where its script changes, each
// run is shaped in the font that has its letters (Noto Sans for Latin, Noto Sans Devanagari for
// Hindi and Marathi), measured, and set on the line's one baseline; paragraphs wrap between
// words. pdfkit's own flowing text sets each font's run on a line of its own height and lets
// the runs of a wrapped paragraph drift apart, so only single runs are handed to it.

export type Weight = "regular" | "bold";

type ParsedFont = ReturnType<typeof fontkit.create>;

/**
 * The fonts, read once per process. They live beside this module in the repository
 * (app/documents/fonts); the server bundle sits two levels below the root too, so the same
 * relative search finds them. Parsed once: pdfkit takes a parsed font as well as its bytes,
 * and parsing the four files for every document was most of its time (8 PDFs a second
 * instead of 40).
 */
let parsedFonts: Record<string, ParsedFont> | undefined;

function fonts() {
  if (parsedFonts) return parsedFonts;
  const here = path.dirname(new URL(import.meta.url).pathname);
  // Beside this module, or from the server bundle: its chunks sit in build/server/assets.
  const candidates = [
    path.join(here, "fonts"),
    path.resolve(here, "..", "..", "app", "documents", "fonts"),
    path.resolve(here, "..", "..", "..", "app", "documents", "fonts"),
  ];
  const dir = candidates.find((candidate) => fs.existsSync(path.join(candidate, "NotoSans-Regular.ttf")));
  if (!dir) throw new Error(`the document fonts are missing (looked in ${candidates.join(", ")})`);
  const read = (name: string) => fontkit.create(fs.readFileSync(path.join(dir, name)));
  parsedFonts = {
    "regular-latin": read("NotoSans-Regular.ttf"),
    "bold-latin": read("NotoSans-Bold.ttf"),
    "regular-devanagari": read("NotoSansDevanagari-Regular.ttf"),
    "bold-devanagari": read("NotoSansDevanagari-Bold.ttf"),
  };
  return parsedFonts;
}

const isDevanagari = (code: number) =>
  (code >= 0x0900 && code <= 0x097f) || (code >= 0xa8e0 && code <= 0xa8ff) || (code >= 0x1cd0 && code <= 0x1cff);
/** Joiners and no-break spaces belong to the run they stand in. */
const isNeutral = (code: number) => code === 0x200c || code === 0x200d || code === 0xa0;

interface Run {
  text: string;
  devanagari: boolean;
}

/** A word cut where its script changes, so each part is set in a font that has its letters. */
function scriptRuns(word: string): Run[] {
  const runs: Run[] = [];
  for (const character of word) {
    const code = character.codePointAt(0)!;
    const last = runs.at(-1);
    const devanagari = isNeutral(code) && last ? last.devanagari : isDevanagari(code);
    if (last && last.devanagari === devanagari) last.text += character;
    else runs.push({ text: character, devanagari });
  }
  return runs;
}

/** A word measured: its runs with their widths. `spaces` is how many spaces stood before it. */
interface Word {
  runs: (Run & { width: number })[];
  width: number;
  spaces: number;
}

interface Line {
  words: Word[];
  width: number;
}

const graphemes = new Intl.Segmenter("en", { granularity: "grapheme" });

/**
 * A PDF string in UTF-16BE with its byte order mark, as hex: any text, with nothing to escape.
 */
const pdfTextString = (text: string) => `<feff${Buffer.from(text, "utf16le").swap16().toString("hex")}>`;

/**
 * Draws with the text object inside a marked-content span whose ActualText is the run in
 * logical order, so that copying or searching reads "विकास" and not the glyphs' visual order
 * ("िवकास": the vowel sign is drawn first). pdfkit wraps each text object in its own
 * transformation (q, cm … Q); the span goes inside it, because extractors (poppler among them)
 * place the ActualText with the transformation in force where the span ends.
 */
function withActualText(doc: PDFKit.PDFDocument, text: string, draw: () => void): void {
  const addContent = doc.addContent.bind(doc);
  doc.addContent = (data: unknown) => {
    if (data === "BT") addContent(`/Span <</ActualText ${pdfTextString(text)}>> BDC`);
    addContent(data);
    if (data === "ET") addContent("EMC");
    return doc;
  };
  try {
    draw();
  } finally {
    Reflect.deleteProperty(doc, "addContent");
  }
}

export class TextSetter {
  constructor(readonly doc: PDFKit.PDFDocument) {
    // fontkit's parsed font is what pdfkit makes of the bytes itself; its types only name the bytes.
    for (const [name, font] of Object.entries(fonts()))
      doc.registerFont(name, font as unknown as PDFKit.Mixins.PDFFontSource);
  }

  private select(weight: Weight, devanagari: boolean, size: number) {
    return this.doc.font(`${weight}-${devanagari ? "devanagari" : "latin"}`).fontSize(size);
  }

  /** A font's vertical metrics at a size, in points: above and below the baseline, and its line. */
  private metrics(weight: Weight, devanagari: boolean, size: number) {
    const font = fonts()[`${weight}-${devanagari ? "devanagari" : "latin"}`]!;
    const scale = size / font.unitsPerEm;
    return {
      ascent: font.ascent * scale,
      descent: -font.descent * scale,
      height: (font.ascent - font.descent + font.lineGap) * scale,
    };
  }

  private spaceWidth(weight: Weight, size: number): number {
    return this.select(weight, false, size).widthOfString(" ");
  }

  private measure(text: string, spaces: number, weight: Weight, size: number): Word {
    const runs = scriptRuns(text).map((run) => ({
      ...run,
      width: this.select(weight, run.devanagari, size).widthOfString(run.text),
    }));
    return { runs, width: runs.reduce((sum, run) => sum + run.width, 0), spaces };
  }

  /** The words of one line of text, each with the spaces before it. */
  private words(text: string, weight: Weight, size: number): Word[] {
    const words: Word[] = [];
    for (const match of text.matchAll(/([ \t]*)([^ \t]+)/g)) {
      words.push(this.measure(match[2]!, match[1]!.length, weight, size));
    }
    return words;
  }

  private lineWidth(words: Word[], space: number): number {
    return words.reduce((sum, word, index) => sum + word.width + (index > 0 ? word.spaces * space : 0), 0);
  }

  /** The width of a one-line text at this size. */
  width(text: string, weight: Weight, size: number): number {
    return this.lineWidth(this.words(text, weight, size), this.spaceWidth(weight, size));
  }

  /** Sets a line's words from x on one baseline, each run in its own font. */
  private draw(line: Line, x: number, baseline: number, weight: Weight, size: number): void {
    const space = this.spaceWidth(weight, size);
    line.words.forEach((word, index) => {
      if (index > 0) x += word.spaces * space;
      for (const run of word.runs) {
        this.select(weight, run.devanagari, size);
        const draw = () => this.doc.text(run.text, x, baseline, { lineBreak: false, baseline: "alphabetic" });
        if (run.devanagari) withActualText(this.doc, run.text, draw);
        else draw();
        x += run.width;
      }
    });
  }

  /**
   * One line with its baseline at y, centred on cx (or starting at x), made smaller until it
   * fits maxWidth: names and titles are never cut or wrapped.
   */
  line(
    text: string,
    at: { cx?: number; x?: number; y: number },
    style: { weight: Weight; size: number; color?: string; maxWidth: number },
  ): void {
    let size = style.size;
    let width = this.width(text, style.weight, size);
    if (width > style.maxWidth) {
      size = Math.max(6, (size * style.maxWidth) / width);
      width = this.width(text, style.weight, size);
    }
    const x = at.cx !== undefined ? at.cx - width / 2 : (at.x ?? 0);
    this.doc.fillColor(style.color ?? "#0f172a");
    this.draw({ words: this.words(text, style.weight, size), width }, x, at.y, style.weight, size);
  }

  /** A word wider than a whole line, cut between its letters (never inside a letter with its signs). */
  private cut(word: Word, width: number, weight: Weight, size: number): Word[] {
    const text = word.runs.map((run) => run.text).join("");
    const pieces: Word[] = [];
    let current = "";
    for (const { segment } of graphemes.segment(text)) {
      if (current && this.measure(current + segment, 0, weight, size).width > width) {
        pieces.push(this.measure(current, pieces.length === 0 ? word.spaces : 0, weight, size));
        current = "";
      }
      current += segment;
    }
    if (current) pieces.push(this.measure(current, pieces.length === 0 ? word.spaces : 0, weight, size));
    return pieces;
  }

  /** Lines of at most `width`, broken between words; a line break in the text starts a new line. */
  private wrap(text: string, width: number, weight: Weight, size: number): Line[] {
    const space = this.spaceWidth(weight, size);
    const lines: Line[] = [];
    for (const hardLine of text.split(/\r?\n/)) {
      let words: Word[] = [];
      const finish = () => {
        lines.push({ words, width: this.lineWidth(words, space) });
        words = [];
      };
      const measured = this.words(hardLine, weight, size).flatMap((word) =>
        word.width > width ? this.cut(word, width, weight, size) : [word],
      );
      for (const word of measured) {
        if (words.length > 0 && this.lineWidth([...words, word], space) > width) finish();
        words.push(word);
      }
      finish();
    }
    return lines;
  }

  /** The last line that fits, ending in "…" to say that more was cut. */
  private ellipsis(line: Line, width: number, weight: Weight, size: number): Line {
    const space = this.spaceWidth(weight, size);
    const words = [...line.words];
    const mark = this.measure("…", 0, weight, size);
    while (words.length > 1 && this.lineWidth([...words, mark], space) > width) words.pop();
    const last = words.pop();
    const ended = last
      ? { ...last, runs: [...last.runs, ...mark.runs], width: last.width + mark.width }
      : { ...mark, spaces: 0 };
    words.push(ended);
    return { words, width: this.lineWidth(words, space) };
  }

  /**
   * A paragraph that wraps within width, from (x, y) or the current position, leaving the
   * current position below it. With a height, lines past it are left out and the last shown
   * ends in "…"; without one, a paragraph that reaches the page's bottom margin goes on
   * on a new page.
   */
  paragraph(
    text: string,
    box: { x: number; y?: number; width: number; height?: number },
    style: { weight?: Weight; size: number; color?: string; align?: "left" | "center"; gap?: number },
  ): void {
    const { doc } = this;
    const weight = style.weight ?? "regular";
    const { size } = style;
    const lineGap = 2;
    const scripts = [false, ...(scriptRuns(text).some((run) => run.devanagari) ? [true] : [])];
    const metrics = scripts.map((devanagari) => this.metrics(weight, devanagari, size));
    const ascent = Math.max(...metrics.map((metric) => metric.ascent));
    const descent = Math.max(...metrics.map((metric) => metric.descent));
    const advance = Math.max(...metrics.map((metric) => metric.height)) + lineGap;

    let lines = this.wrap(text, box.width, weight, size);
    if (box.height !== undefined) {
      const fit = Math.max(1, Math.floor((box.height + lineGap) / advance));
      if (lines.length > fit) {
        lines = lines.slice(0, fit);
        lines[fit - 1] = this.ellipsis(lines[fit - 1]!, box.width, weight, size);
      }
    }
    doc.fillColor(style.color ?? "#0f172a");
    let top = box.y ?? doc.y;
    for (const line of lines) {
      if (box.height === undefined && top + ascent + descent > doc.page.height - doc.page.margins.bottom) {
        doc.addPage();
        doc.fillColor(style.color ?? "#0f172a");
        top = doc.page.margins.top;
      }
      const x = style.align === "center" ? box.x + (box.width - line.width) / 2 : box.x;
      this.draw(line, x, top + ascent, weight, size);
      top += advance;
    }
    doc.x = box.x;
    doc.y = top + (style.gap ?? 0);
  }
}
