import PDFDocument from "pdfkit";
import QRCode from "qrcode";
import type { DocumentKind, PayKind, PayPeriod } from "./kinds";
import { documentInfo, writeXmpPacket, type PdfFacts } from "./pdf-metadata.server";
import { TextSetter } from "./pdf-text.server";
import { formatDocumentDate, payWords } from "./words";

/** What a document says, as its PDF prints it and its pages show it. Dates are 'YYYY-MM-DD'. */
export interface DocumentFields {
  kind: DocumentKind;
  code: string;
  holderName: string;
  /** Certificate title, or the offer letter's position. */
  title: string;
  description: string | null;
  issuedOn: string;
  validUntil: string | null;
  hours: number | null;
  startDate: string | null;
  location: string | null;
  pay: { kind: PayKind; amountPaise: number; period: PayPeriod } | null;
  replyBy: string | null;
}

/** Everything a document's PDF prints. */
export interface PdfDocument extends DocumentFields {
  /** The offer letter's body as plain paragraphs (paragraphsFromHtml). */
  paragraphs: string[];
  /** The institute as stored at /staff/site when the PDF is made; logo: its PNG bytes, or null for the product's mark. */
  issuer: { name: string; address: string; email: string; phone: string; logo: Buffer | null };
  signatory: { name: string; title: string; image: Buffer | null } | null;
  /** The verify page's address, with the signature as its fragment (verifyUrl in code.ts): the QR code opens it. */
  verifyUrl: string;
  /** A sample made on the settings page: SAMPLE across the page. */
  sample?: boolean;
}

const blue = "#1e40af";
const gold = "#b45309";
const ink = "#0f172a";
const muted = "#475569";

/**
 * The densest QR code the documents print: version 8 (49 modules a side, 0.56 mm each in the
 * 84 pt square), which a phone reads from a print and zbarimg from a 150 dpi scan.
 */
const qrMaxVersion = 8;

/**
 * The verify address with its signature as a QR code at error correction M; without the
 * signature when both need a denser code than version 8 (an APP_URL longer than about 50
 * characters): the address is what a phone needs, the signature only serves offline checks.
 */
function qrSymbol(url: string) {
  const withSignature = QRCode.create(url, { errorCorrectionLevel: "M" });
  if (withSignature.version <= qrMaxVersion) return withSignature;
  return QRCode.create(printedAddress(url), { errorCorrectionLevel: "M" });
}

class Writer extends TextSetter {
  /**
   * The institute's logo, size tall and at most four times as wide, its left edge at x (or
   * centred on x); the product's mark (vectors) when none is stored or it cannot be read.
   * Answers the width it took.
   */
  logo(image: Buffer | null, x: number, y: number, size: number, centred = false): number {
    const { doc } = this;
    if (image) {
      try {
        // The stored logo is a PNG (re-encoded when uploaded): its size is in the IHDR chunk.
        const aspect = image.readUInt32BE(16) / image.readUInt32BE(20);
        const width = Math.min(size * 4, size * aspect);
        doc.image(image, centred ? x - width / 2 : x, y, { fit: [width, size], align: "center", valign: "center" });
        return width;
      } catch {
        // A logo pdfkit cannot read leaves the product's mark, not a failed document.
      }
    }
    doc
      .save()
      .translate(centred ? x - size / 2 : x, y)
      .scale(size / 64);
    doc.roundedRect(0, 0, 64, 64, 14).fill(blue);
    doc.path("M18 17v17a14 14 0 0 0 28 0V17").lineWidth(7).lineCap("round").stroke("#ffffff");
    doc.path("M32 12l-8 9h16z").fill("#fbbf24");
    doc.moveTo(32, 20).lineTo(32, 39).lineWidth(5).lineCap("round").stroke("#fbbf24");
    doc.restore();
    return size;
  }

  /** SAMPLE across the page, faint, over what is printed (a sample must never pass for a document). */
  sampleMark(): void {
    const { doc } = this;
    const cx = doc.page.width / 2;
    const cy = doc.page.height / 2;
    doc
      .save()
      .opacity(0.18)
      .rotate(-30, { origin: [cx, cy] });
    this.line("SAMPLE", { cx, y: cy + 40 }, { weight: "bold", size: 120, color: "#b91c1c", maxWidth: doc.page.width });
    doc.restore();
  }

  /** The QR code of the verify address as vector squares: sharp at any zoom, a few hundred bytes. */
  qr(url: string, x: number, y: number, size: number): void {
    const { modules } = qrSymbol(url);
    const count = modules.size;
    // A quiet zone of two modules on each side, inside the given size.
    const cell = size / (count + 4);
    const { doc } = this;
    doc.save();
    doc.rect(x, y, size, size).fill("#ffffff");
    for (let row = 0; row < count; row++) {
      let start = -1;
      for (let column = 0; column <= count; column++) {
        const dark = column < count && modules.get(row, column);
        if (dark && start < 0) start = column;
        if (!dark && start >= 0) {
          doc.rect(x + (start + 2) * cell, y + (row + 2) * cell, (column - start) * cell, cell);
          start = -1;
        }
      }
    }
    doc.fill("#000000");
    doc.restore();
  }

  /** The signatory above their name and title, centred on cx, the line at baseline y. */
  signatory(signatory: NonNullable<PdfDocument["signatory"]>, cx: number, y: number, width: number): void {
    const { doc } = this;
    if (signatory.image) {
      try {
        doc.image(signatory.image, cx - width / 2, y - 58, { fit: [width, 52], align: "center", valign: "bottom" });
      } catch {
        // An image pdfkit cannot read leaves the line to sign on, not a failed document.
      }
    }
    doc
      .moveTo(cx - width / 2, y)
      .lineTo(cx + width / 2, y)
      .lineWidth(0.8)
      .stroke(muted);
    this.line(signatory.name, { cx, y: y + 16 }, { weight: "bold", size: 11, maxWidth: width });
    this.line(signatory.title, { cx, y: y + 32 }, { weight: "regular", size: 9.5, color: muted, maxWidth: width });
  }
}

/** What a PDF says about itself (its properties in a reader). */
function facts(document: PdfDocument): PdfFacts {
  return {
    title: `${document.sample ? "SAMPLE " : ""}${document.kind === "certificate" ? "Certificate" : "Offer letter"}: ${document.title}`,
    author: document.issuer.name,
    subject: `${document.holderName}, ${document.code}`,
    creator: document.issuer.name,
    created: new Date(`${document.issuedOn}T00:00:00Z`),
  };
}

/** A new A4 document with its properties and XMP metadata. */
function newPdf(document: PdfDocument, options: PDFKit.PDFDocumentOptions): PDFKit.PDFDocument {
  const doc = new PDFDocument({ size: "A4", ...options, info: documentInfo(facts(document)), pdfVersion: "1.7" });
  writeXmpPacket(doc, facts(document));
  return doc;
}

function collect(doc: PDFKit.PDFDocument): Promise<Buffer> {
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  return new Promise((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
}

/** A certificate (A4 landscape) or an offer letter (A4 portrait letterhead), as PDF bytes. */
export function renderDocumentPdf(document: PdfDocument): Promise<Buffer> {
  return document.kind === "certificate" ? renderCertificate(document) : renderOfferLetter(document);
}

function renderCertificate(document: PdfDocument): Promise<Buffer> {
  const doc = newPdf(document, { layout: "landscape", margin: 0 });
  const done = collect(doc);
  const w = new Writer(doc);
  const width = doc.page.width;
  const height = doc.page.height;
  const cx = width / 2;
  const inner = width - 160;

  doc
    .rect(20, 20, width - 40, height - 40)
    .lineWidth(3)
    .stroke(blue);
  doc
    .rect(30, 30, width - 60, height - 60)
    .lineWidth(0.8)
    .stroke(gold);

  w.logo(document.issuer.logo, cx, 48, 44, true);
  w.line(document.issuer.name, { cx, y: 122 }, { weight: "bold", size: 20, color: blue, maxWidth: inner });
  w.line(document.issuer.address, { cx, y: 140 }, { weight: "regular", size: 9.5, color: muted, maxWidth: inner });

  w.line("CERTIFICATE", { cx, y: 192 }, { weight: "bold", size: 34, color: ink, maxWidth: inner });
  w.line("This is to certify that", { cx, y: 228 }, { weight: "regular", size: 13, color: muted, maxWidth: inner });
  w.line(document.holderName, { cx, y: 270 }, { weight: "bold", size: 30, color: blue, maxWidth: inner });
  doc
    .moveTo(cx - 180, 282)
    .lineTo(cx + 180, 282)
    .lineWidth(0.8)
    .stroke(gold);
  w.line("has successfully completed", { cx, y: 308 }, { weight: "regular", size: 13, color: muted, maxWidth: inner });
  w.line(document.title, { cx, y: 342 }, { weight: "bold", size: 22, color: ink, maxWidth: inner });
  if (document.description) {
    w.paragraph(
      document.description,
      { x: 120, y: 356, width: width - 240, height: 46 },
      { size: 11, color: muted, align: "center" },
    );
  }
  const facts = [`Issued on ${formatDocumentDate(document.issuedOn)}`];
  if (document.hours !== null) facts.push(`${document.hours} ${document.hours === 1 ? "hour" : "hours"}`);
  if (document.validUntil) facts.push(`Valid until ${formatDocumentDate(document.validUntil)}`);
  w.line(facts.join("   ·   "), { cx, y: 424 }, { weight: "regular", size: 11, color: ink, maxWidth: inner });

  if (document.signatory) w.signatory(document.signatory, 200, 500, 200);

  const qrSize = 84;
  const qrX = width - 60 - qrSize;
  const qrY = height - 62 - qrSize;
  w.qr(document.verifyUrl, qrX, qrY, qrSize);
  const textRight = qrX - 10;
  const textWidth = 260;
  w.line(
    `Certificate code ${document.code}`,
    { x: textRight - textWidth, y: qrY + 34 },
    {
      weight: "bold",
      size: 9.5,
      maxWidth: textWidth,
    },
  );
  w.line(
    "Verify this certificate at",
    { x: textRight - textWidth, y: qrY + 50 },
    {
      weight: "regular",
      size: 8.5,
      color: muted,
      maxWidth: textWidth,
    },
  );
  w.line(
    printedAddress(document.verifyUrl),
    { x: textRight - textWidth, y: qrY + 62 },
    {
      weight: "regular",
      size: 8.5,
      color: blue,
      maxWidth: textWidth,
    },
  );
  doc.link(qrX, qrY, qrSize, qrSize, document.verifyUrl);
  if (document.sample) w.sampleMark();
  doc.end();
  return done;
}

function renderOfferLetter(document: PdfDocument): Promise<Buffer> {
  const margin = 56;
  const doc = newPdf(document, { margins: { top: margin, bottom: margin, left: margin, right: margin } });
  const done = collect(doc);
  const w = new Writer(doc);
  const width = doc.page.width;
  const textWidth = width - 2 * margin;
  const { issuer } = document;

  // The letterhead.
  const head = margin + w.logo(issuer.logo, margin, 40, 40) + 12;
  const headWidth = width - margin - head;
  w.line(issuer.name, { x: head, y: 60 }, { weight: "bold", size: 18, color: blue, maxWidth: headWidth });
  w.line(issuer.address, { x: head, y: 76 }, { weight: "regular", size: 8.5, color: muted, maxWidth: headWidth });
  w.line(
    `${issuer.email}   ·   ${issuer.phone}`,
    { x: head, y: 88 },
    { weight: "regular", size: 8.5, color: muted, maxWidth: headWidth },
  );
  doc
    .moveTo(margin, 100)
    .lineTo(width - margin, 100)
    .lineWidth(1.5)
    .stroke(blue);

  w.line(
    `Date: ${formatDocumentDate(document.issuedOn)}`,
    { x: margin, y: 128 },
    {
      weight: "regular",
      size: 10,
      maxWidth: textWidth / 2,
    },
  );
  w.line(`Ref: ${document.code}`, { x: width / 2, y: 128 }, { weight: "regular", size: 10, maxWidth: textWidth / 2 });
  w.line("To", { x: margin, y: 156 }, { weight: "regular", size: 10.5, maxWidth: textWidth });
  w.line(document.holderName, { x: margin, y: 174 }, { weight: "bold", size: 13, maxWidth: textWidth });
  w.line("OFFER LETTER", { cx: width / 2, y: 212 }, { weight: "bold", size: 16, color: blue, maxWidth: textWidth });
  w.paragraph(
    `Subject: Offer for the position of ${document.title}`,
    { x: margin, y: 228, width: textWidth },
    {
      weight: "bold",
      size: 10.5,
      gap: 10,
    },
  );
  w.paragraph(`Dear ${document.holderName},`, { x: margin, width: textWidth }, { size: 10.5, gap: 8 });
  for (const paragraph of document.paragraphs) {
    w.paragraph(paragraph, { x: margin, width: textWidth }, { size: 10.5, gap: 8 });
  }

  // The terms, as a two-column table.
  const terms: [string, string][] = [["Position", document.title]];
  if (document.startDate) terms.push(["Start date", formatDocumentDate(document.startDate)]);
  if (document.location) terms.push(["Location", document.location]);
  if (document.pay) terms.push([document.pay.kind === "ctc" ? "CTC" : "Stipend", payWords(document.pay)]);
  if (document.replyBy) terms.push(["Please reply by", formatDocumentDate(document.replyBy)]);
  const rowHeight = 20;
  if (doc.y + 12 + terms.length * rowHeight > doc.page.height - margin) doc.addPage();
  let y = doc.y + 12;
  for (const [label, value] of terms) {
    doc.rect(margin, y, textWidth, rowHeight).lineWidth(0.5).stroke("#cbd5e1");
    w.line(label, { x: margin + 8, y: y + 14 }, { weight: "bold", size: 10, maxWidth: 130 });
    w.line(value, { x: margin + 150, y: y + 14 }, { weight: "regular", size: 10, maxWidth: textWidth - 158 });
    y += rowHeight;
  }

  // Signature on the left, the code and QR code on the right, kept together on one page.
  const footerHeight = 120;
  if (y + 20 + footerHeight > doc.page.height - margin) {
    doc.addPage();
    y = margin;
  }
  const footerTop = y + 24;
  w.line(`For ${issuer.name}`, { x: margin, y: footerTop + 8 }, { weight: "regular", size: 10, maxWidth: 220 });
  if (document.signatory) w.signatory(document.signatory, margin + 100, footerTop + 76, 200);
  const qrSize = 84;
  const qrX = width - margin - qrSize;
  w.qr(document.verifyUrl, qrX, footerTop, qrSize);
  w.line(document.code, { x: qrX - 190, y: footerTop + 36 }, { weight: "bold", size: 9.5, maxWidth: 182 });
  w.line(
    "Verify this letter at",
    { x: qrX - 190, y: footerTop + 52 },
    {
      weight: "regular",
      size: 8.5,
      color: muted,
      maxWidth: 182,
    },
  );
  w.line(
    printedAddress(document.verifyUrl),
    { x: qrX - 190, y: footerTop + 64 },
    {
      weight: "regular",
      size: 7.5,
      color: blue,
      maxWidth: 182,
    },
  );
  doc.link(qrX, footerTop, qrSize, qrSize, document.verifyUrl);
  if (document.sample) w.sampleMark();
  doc.end();
  return done;
}

/** The address as printed for people to type: without the signature the QR code carries. */
function printedAddress(verifyUrl: string): string {
  const fragment = verifyUrl.indexOf("#");
  return fragment === -1 ? verifyUrl : verifyUrl.slice(0, fragment);
}
