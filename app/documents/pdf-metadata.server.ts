// What a document's PDF says about itself: its document information dictionary and the same
// facts as an XMP packet, which PDF/A validators and document managers read.

/** The facts both carry. */
export interface PdfFacts {
  title: string;
  author: string;
  subject: string;
  creator: string;
  created: Date;
}

/** The document information dictionary, as pdfkit takes it (pdfkit escapes these itself). */
export function documentInfo(facts: PdfFacts): PDFKit.DocumentInfo {
  return {
    Title: facts.title,
    Author: facts.author,
    Subject: facts.subject,
    Creator: facts.creator,
    CreationDate: facts.created,
  };
}

/**
 * Text as XML character data or an attribute value. Characters XML 1.0 cannot carry at all
 * (most C0 controls, lone surrogates, U+FFFE and U+FFFF) are left out rather than making the
 * packet unreadable.
 */
export function xmlText(text: string): string {
  let out = "";
  for (const character of text) {
    const code = character.codePointAt(0)!;
    const allowed =
      code === 0x9 ||
      code === 0xa ||
      code === 0xd ||
      (code >= 0x20 && code <= 0xd7ff) ||
      (code >= 0xe000 && code <= 0xfffd) ||
      code >= 0x10000;
    if (!allowed) continue;
    if (character === "&") out += "&amp;";
    else if (character === "<") out += "&lt;";
    else if (character === ">") out += "&gt;";
    else if (character === '"') out += "&quot;";
    else if (character === "'") out += "&apos;";
    else out += character;
  }
  return out;
}

/** The XMP packet: the information dictionary's facts in Dublin Core, XMP and PDF terms. */
export function xmpPacket(facts: PdfFacts, producer: string): string {
  const date = facts.created.toISOString().replace(/\.\d{3}Z$/, "Z");
  return [
    `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>`,
    `<x:xmpmeta xmlns:x="adobe:ns:meta/">`,
    `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">`,
    `<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:pdf="http://ns.adobe.com/pdf/1.3/">`,
    `<dc:format>application/pdf</dc:format>`,
    `<dc:title><rdf:Alt><rdf:li xml:lang="x-default">${xmlText(facts.title)}</rdf:li></rdf:Alt></dc:title>`,
    `<dc:creator><rdf:Seq><rdf:li>${xmlText(facts.author)}</rdf:li></rdf:Seq></dc:creator>`,
    `<dc:description><rdf:Alt><rdf:li xml:lang="x-default">${xmlText(facts.subject)}</rdf:li></rdf:Alt></dc:description>`,
    `<xmp:CreateDate>${date}</xmp:CreateDate>`,
    `<xmp:CreatorTool>${xmlText(facts.creator)}</xmp:CreatorTool>`,
    `<pdf:Producer>${xmlText(producer)}</pdf:Producer>`,
    `</rdf:Description>`,
    `</rdf:RDF>`,
    `</x:xmpmeta>`,
    `<?xpacket end="r"?>`,
  ].join("\n");
}

/** The pdfkit internals the packet is written with (pdfkit's own writes these fields unescaped). */
interface MetadataInternals {
  endMetadata(): void;
  _root: { data: Record<string, unknown> };
  info: PDFKit.DocumentInfo;
}

/**
 * Makes the document write this packet as its catalog's Metadata stream in place of pdfkit's,
 * which puts names and titles into the XML unescaped (a title with "&" is not XML) and adds a
 * stray lowercase "length" key to the stream's dictionary.
 */
export function writeXmpPacket(doc: PDFKit.PDFDocument, facts: PdfFacts): void {
  const internals = doc as unknown as MetadataInternals;
  internals.endMetadata = () => {
    const stream = doc.ref({ Type: "Metadata", Subtype: "XML" });
    // Uncompressed, as XMP is meant to be found by tools that do not read PDF.
    stream.compress = false;
    stream.end(Buffer.from(xmpPacket(facts, String(internals.info.Producer ?? "PDFKit")), "utf8"));
    internals._root.data.Metadata = stream;
  };
}
