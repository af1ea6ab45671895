import sanitizeHtml from "sanitize-html";

/**
 * The HTML staff may send: text formatting, lists, headings, quotes, code and links. Anything
 * else is dropped (script, style, iframe, img, forms, event handlers, style attributes), links
 * keep only http(s) and mailto targets and always open in a new tab without an opener.
 */
const options: sanitizeHtml.IOptions = {
  allowedTags: [
    "p",
    "br",
    "hr",
    "div",
    "span",
    "b",
    "strong",
    "i",
    "em",
    "u",
    "s",
    "small",
    "sub",
    "sup",
    "mark",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "ul",
    "ol",
    "li",
    "blockquote",
    "pre",
    "code",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "a",
  ],
  allowedAttributes: { a: ["href", "title", "target", "rel"], th: ["colspan", "rowspan"], td: ["colspan", "rowspan"] },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesAppliedToAttributes: ["href"],
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  // script/style contents are dropped with the tag, never shown as text.
  nonTextTags: ["script", "style", "textarea", "option", "noscript", "iframe", "object", "embed"],
  transformTags: {
    a: (tagName, attribs) => ({
      tagName,
      attribs: { ...attribs, target: "_blank", rel: "noopener noreferrer nofollow" },
    }),
  },
};

/** Sanitizes staff-written HTML with the allow-list; run once, before storing. */
export function sanitizeMessageHtml(html: string): string {
  return sanitizeHtml(html, options).trim();
}

/** A line that starts a block of its own: HTML the staff member laid out themselves. */
const blockTag = /^<\/?(p|div|ul|ol|li|h[1-6]|blockquote|pre|table|thead|tbody|tr|hr)[\s>/]/i;

/**
 * Staff type plain text: a blank line starts a new paragraph and a single line break stays a
 * line break, so learners see the lines as they were typed. A paragraph that is already HTML
 * block markup (a list, a table, `<p>`) is left as written. The result still goes through the
 * sanitizer; applying this to its own output changes nothing.
 */
export function htmlFromTypedText(text: string): string {
  const paragraphs: string[][] = [[]];
  for (const line of text.split("\n")) {
    const trimmed = line.replace(/\r$/, "").trim();
    if (trimmed) paragraphs[paragraphs.length - 1]!.push(trimmed);
    else if (paragraphs[paragraphs.length - 1]!.length > 0) paragraphs.push([]);
  }
  return paragraphs
    .filter((lines) => lines.length > 0)
    .map((lines) => (blockTag.test(lines[0]!) ? lines.join("\n") : `<p>${lines.join("<br>")}</p>`))
    .join("\n");
}
