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

/** Sanitizes staff-written HTML with the allow-list; run before storing and again before showing. */
export function sanitizeMessageHtml(html: string): string {
  return sanitizeHtml(html, options).trim();
}
