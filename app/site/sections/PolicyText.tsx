import { Fragment } from "react";
import { storedData } from "../stored-data";
import { parsePolicy, type Inline, type Placeholders } from "./policy-text";

function InlineText({ parts }: { parts: Inline[] }) {
  return parts.map((part, index) => {
    if (part.kind === "text") return <Fragment key={index}>{part.text}</Fragment>;
    if (part.kind === "strong")
      return (
        <strong key={index}>
          <InlineText parts={part.children} />
        </strong>
      );
    return (
      <a key={index} href={part.href}>
        <InlineText parts={part.children} />
      </a>
    );
  });
}

/** What the database stores, table by table, why and for how long (app/site/stored-data.ts). */
function StoredDataTable() {
  return (
    <table>
      <thead>
        <tr>
          <th scope="col">What</th>
          <th scope="col">Why</th>
          <th scope="col">How long</th>
        </tr>
      </thead>
      <tbody>
        {storedData.map((item) => (
          <tr key={item.tables.join(" ")}>
            <td>{item.what}</td>
            <td>{item.why}</td>
            <td>{item.keptFor}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A policy's text as the page shows it: headings, paragraphs, lists, bold and links only. */
export function PolicyText({ body, values }: { body: string; values: Placeholders }) {
  return parsePolicy(body, values).map((block, index) => {
    switch (block.kind) {
      case "h2":
        return (
          <h2 key={index}>
            <InlineText parts={block.children} />
          </h2>
        );
      case "h3":
        return (
          <h3 key={index}>
            <InlineText parts={block.children} />
          </h3>
        );
      case "p":
        return (
          <p key={index}>
            <InlineText parts={block.children} />
          </p>
        );
      case "stored-data-table":
        return <StoredDataTable key={index} />;
      default: {
        const List = block.kind;
        return (
          <List key={index}>
            {block.items.map((item, itemIndex) => (
              <li key={itemIndex}>
                <InlineText parts={item} />
              </li>
            ))}
          </List>
        );
      }
    }
  });
}
