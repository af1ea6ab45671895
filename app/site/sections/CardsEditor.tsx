import { useId } from "react";
import { ActionForm } from "~/ui/ActionForm";
import { Field } from "~/ui/form";
import { primaryButton, secondaryButton } from "~/ui/styles";
import { editorPanel } from "./BrandEditor";
import {
  cardSchema,
  moveCardSchema,
  sectionLimits,
  sectionNames,
  type Card,
  type CardSectionKey,
} from "./section-types";

/** A card's fields: for a card of the list, or a new one (no index). */
function CardFields({ card, withValue }: { card?: Card; withValue: boolean }) {
  const id = useId();
  return (
    <>
      <Field id={`${id}-label`} name="label" label="Title" defaultValue={card?.label} maxLength={sectionLimits.line} />
      {withValue && (
        <Field
          id={`${id}-value`}
          name="value"
          label="Short line under the title (optional)"
          defaultValue={card?.value}
          maxLength={sectionLimits.line}
        />
      )}
      <Field
        id={`${id}-description`}
        name="description"
        multiline
        label="Description (optional)"
        defaultValue={card?.description}
        maxLength={sectionLimits.paragraph}
      />
      <label className="inline-flex items-center gap-2 text-slate-900">
        <input type="checkbox" name="shown" defaultChecked={card?.shown ?? true} /> Shown on the site
      </label>
    </>
  );
}

function MoveButton({
  section,
  index,
  direction,
  label,
}: {
  section: CardSectionKey;
  index: number;
  direction: "up" | "down";
  label: string;
}) {
  return (
    <ActionForm intent="move-card" schema={moveCardSchema} label={`Move ${label} ${direction}`} className="inline">
      <input type="hidden" name="section" value={section} />
      <input type="hidden" name="index" value={index} />
      <input type="hidden" name="direction" value={direction} />
      <button
        type="submit"
        className="rounded-md border border-slate-400 px-3 py-1 text-sm font-semibold text-slate-900 hover:bg-slate-100"
      >
        Move {direction}
        <span className="sr-only"> {label}</span>
      </button>
    </ActionForm>
  );
}

/**
 * A section's cards: each one folded with its form (edit, hide) and its Move up / Move down,
 * then a form to add one at the end.
 */
export function CardsEditor({
  section,
  cards,
  noun,
  withValue = true,
}: {
  section: CardSectionKey;
  cards: Card[];
  noun: string;
  withValue?: boolean;
}) {
  return (
    <>
      <ol className="mt-4 space-y-3">
        {cards.map((card, index) => {
          // Unique on the page (forms are landmarks): the place and the section, with the title.
          const name = `card ${index + 1} of ${sectionNames[section]}, ${card.label}`;
          return (
            <li
              key={`${index}-${JSON.stringify(card)}`}
              className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
            >
              <details>
                <summary className="cursor-pointer font-semibold text-slate-900">
                  {index + 1}. {card.label}{" "}
                  {!card.shown && <span className="font-normal text-amber-800">(hidden)</span>}
                </summary>
                <ActionForm
                  intent="save-card"
                  schema={cardSchema}
                  resetOnSuccess={false}
                  label={`Change ${name}`}
                  className="mt-4 space-y-4"
                >
                  <input type="hidden" name="section" value={section} />
                  <input type="hidden" name="index" value={index} />
                  <CardFields card={card} withValue={withValue} />
                  <button type="submit" className={secondaryButton}>
                    Save card
                  </button>
                </ActionForm>
              </details>
              <div className="mt-3 flex flex-wrap gap-2">
                {index > 0 && <MoveButton section={section} index={index} direction="up" label={name} />}
                {index < cards.length - 1 && (
                  <MoveButton section={section} index={index} direction="down" label={name} />
                )}
              </div>
            </li>
          );
        })}
      </ol>
      {cards.length < sectionLimits.cards && (
        <ActionForm
          intent="save-card"
          schema={cardSchema}
          label={`Add ${noun} to ${sectionNames[section]}`}
          className={editorPanel}
        >
          <h4 className="font-semibold text-slate-900">Add {noun}</h4>
          <input type="hidden" name="section" value={section} />
          <CardFields withValue={withValue} />
          <button type="submit" className={primaryButton}>
            Add {noun}
          </button>
        </ActionForm>
      )}
    </>
  );
}
