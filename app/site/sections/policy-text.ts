// The policy pages' plain-text markup, parsed into blocks that React renders as text: no HTML
// written by anyone ever reaches the page. Lines starting `## ` and `### ` are headings, `- `
// or `* ` list items, `1. ` numbered items; blank lines separate paragraphs; inline `**bold**`
// and `[text](link)` (a path of this site, #section, https: or mailto:). {name}, {email},
// {phone} and {address} are the brand's details.

export type Inline =
  | { kind: "text"; text: string }
  | { kind: "strong"; children: Inline[] }
  | { kind: "link"; href: string; children: Inline[] };

export type Block =
  | { kind: "h2" | "h3"; children: Inline[] }
  | { kind: "p"; children: Inline[] }
  | { kind: "ul" | "ol"; items: Inline[][] }
  | { kind: "stored-data-table" };

export type Placeholders = Record<"name" | "email" | "phone" | "address", string>;

const safeHref = (href: string) =>
  /^\/(?!\/)\S*$/.test(href) ||
  /^#[\w-]+$/.test(href) ||
  /^https:\/\/\S+$/.test(href) ||
  /^mailto:[^\s@]+@\S+$/.test(href);

const fill = (text: string, values: Placeholders) =>
  text.replace(/\{(name|email|phone|address)\}/g, (_, key: keyof Placeholders) => values[key]);

/** `**bold**` and `[text](link)` within a line; anything else is text, as written. */
export function parseInline(text: string, values: Placeholders): Inline[] {
  const parts: Inline[] = [];
  const pattern = /\*\*(.+?)\*\*|\[([^\]]+)\]\(([^)\s]+)\)/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) parts.push({ kind: "text", text: fill(text.slice(last, match.index), values) });
    if (match[1] !== undefined) parts.push({ kind: "strong", children: parseInline(match[1], values) });
    else {
      const href = fill(match[3]!, values);
      const children = parseInline(match[2]!, values);
      parts.push(safeHref(href) ? { kind: "link", href, children } : { kind: "text", text: fill(match[0], values) });
    }
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push({ kind: "text", text: fill(text.slice(last), values) });
  return parts;
}

const listItem = /^(?:[-*]|\d{1,3}[.)])\s+/;

/** The text's blocks, in order. */
export function parsePolicy(body: string, values: Placeholders): Block[] {
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  let list: { kind: "ul" | "ol"; items: string[] } | null = null;
  const flush = () => {
    if (paragraph.length > 0) blocks.push({ kind: "p", children: parseInline(paragraph.join(" "), values) });
    if (list) blocks.push({ kind: list.kind, items: list.items.map((item) => parseInline(item, values)) });
    paragraph = [];
    list = null;
  };
  for (const raw of body.replace(/\r\n?/g, "\n").split("\n")) {
    const line = raw.trim();
    const heading = /^(#{2,3})\s+(.*)$/.exec(line);
    if (line === "") flush();
    else if (heading) {
      flush();
      blocks.push({ kind: heading[1]!.length === 2 ? "h2" : "h3", children: parseInline(heading[2]!, values) });
    } else if (line === "{stored-data-table}") {
      flush();
      blocks.push({ kind: "stored-data-table" });
    } else if (listItem.test(line)) {
      const kind = /^[-*]/.test(line) ? "ul" : "ol";
      if (paragraph.length > 0 || (list && list.kind !== kind)) flush();
      list ??= { kind, items: [] };
      list.items.push(line.replace(listItem, ""));
    } else if (list) {
      // A line under an item continues it.
      list.items[list.items.length - 1] += ` ${line}`;
    } else paragraph.push(line);
  }
  flush();
  return blocks;
}
