import { useId } from "react";
import { Field, controlClass, labelClass } from "~/ui/form";
import type { DocumentInput } from "./document-inputs";

const rowColumns = ["", "", "sm:grid-cols-2", "sm:grid-cols-3", "sm:grid-cols-2"];

/** A document's inputs, from its one declaration, in its rows. */
export function DocumentFields<N extends string>({
  inputs,
  rows,
  draft,
  onDraft,
}: {
  inputs: Record<N, DocumentInput>;
  rows: readonly (readonly N[])[];
  draft: Record<N, string>;
  onDraft: (draft: Record<N, string>) => void;
}) {
  const ids = useId();
  const input = (name: N) => {
    const { label, control, options, ...rest } = inputs[name];
    const id = `${ids}-${name}`;
    const common = {
      id,
      name,
      value: draft[name],
      onChange: (event: { target: { value: string } }) => onDraft({ ...draft, [name]: event.target.value }),
    };
    if (control === "select") {
      return (
        <div key={name}>
          <label htmlFor={id} className={labelClass}>
            {label}
          </label>
          <select className={controlClass} {...common}>
            {options?.map(([value, words]) => (
              <option key={value} value={value}>
                {words}
              </option>
            ))}
          </select>
        </div>
      );
    }
    if (control === "multiline") {
      return <Field key={name} multiline label={label} className="[&_textarea]:h-32" {...rest} {...common} />;
    }
    return <Field key={name} label={label} type={control === "date" ? "date" : "text"} {...rest} {...common} />;
  };
  return (
    <>
      {rows.map((row) =>
        row.length === 1 ? (
          input(row[0]!)
        ) : (
          <div key={row.join()} className={`grid gap-3 ${rowColumns[row.length] ?? ""}`}>
            {row.map(input)}
          </div>
        ),
      )}
    </>
  );
}
