import { useId, useState } from "react";
import { ActionForm } from "~/ui/ActionForm";
import { Field, controlClass, labelClass } from "~/ui/form";
import { primaryButton } from "~/ui/styles";
import { contrastWithWhite, minimumContrast, ratioText } from "./contrast";
import { brandSchema, colourProblem, imageAccept, sectionLimits, type Brand } from "./section-types";

export const editorPanel = "mt-4 space-y-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6";

/** The brand colour, with white text's contrast on it worked out as it is typed. */
function ColourField({ initial }: { initial: string }) {
  const id = useId();
  const [colour, setColour] = useState(initial);
  const ratio = colour.trim() === "" ? null : contrastWithWhite(colour);
  const problem = colour.trim() === "" ? null : colourProblem(colour.trim());
  return (
    <div>
      <label htmlFor={`${id}-colour`} className={labelClass}>
        Brand colour of the buttons (empty: the product's blue)
      </label>
      <div className="mt-1 flex items-center gap-3">
        <input
          id={`${id}-colour`}
          name="colour"
          value={colour}
          onChange={(event) => setColour(event.target.value)}
          placeholder="#1e40af"
          maxLength={sectionLimits.line}
          aria-describedby={`${id}-ratio`}
          aria-invalid={problem ? true : undefined}
          className={`${controlClass} mt-0 max-w-40 font-mono`}
        />
        <span
          aria-hidden="true"
          className="inline-flex h-10 items-center rounded-md border border-slate-300 px-3 font-semibold text-white"
          style={{ background: ratio === null ? "var(--color-brand)" : colour }}
        >
          Sample
        </span>
      </div>
      <p
        id={`${id}-ratio`}
        aria-live="polite"
        className={`mt-1 text-sm ${problem ? "text-red-700" : "text-slate-700"}`}
      >
        {ratio === null
          ? (problem ?? "White text on the buttons is checked against WCAG AA (at least 4.5:1).")
          : (problem ??
            `White text on ${colour.trim()}: ${ratioText(ratio)}, at least ${minimumContrast}:1 as WCAG AA asks.`)}
      </p>
    </div>
  );
}

/** The institute's name, contact details, logo and colour (saved as a draft until published). */
export function BrandEditor({ brand }: { brand: Brand }) {
  const id = useId();
  return (
    <ActionForm
      intent="save-brand"
      withFile
      schema={brandSchema}
      resetOnSuccess={false}
      label="Brand and contact"
      className={editorPanel}
    >
      <div key={JSON.stringify(brand)} className="grid gap-4 sm:grid-cols-2">
        <Field
          id={`${id}-name`}
          name="name"
          label="Institute's name"
          defaultValue={brand.name}
          maxLength={sectionLimits.line}
        />
        <Field id={`${id}-email`} name="email" type="email" label="Email" defaultValue={brand.email} maxLength={254} />
        <Field
          id={`${id}-phone`}
          name="phone"
          type="tel"
          label="Phone"
          defaultValue={brand.phone}
          maxLength={sectionLimits.line}
        />
        <Field
          id={`${id}-whatsapp`}
          name="whatsapp"
          type="tel"
          label="WhatsApp number with country code (optional)"
          defaultValue={brand.whatsapp ? `+${brand.whatsapp}` : ""}
          maxLength={sectionLimits.line}
        />
        <Field
          id={`${id}-address`}
          name="address"
          label="Postal address"
          defaultValue={brand.address}
          maxLength={sectionLimits.address}
          className="sm:col-span-2"
        />
        <ColourField initial={brand.colour ?? ""} />
        <div>
          <label htmlFor={`${id}-logo`} className={labelClass}>
            Logo (PNG, JPEG or WebP, at most 5 MB)
          </label>
          <input id={`${id}-logo`} name="logo" type="file" accept={imageAccept} className={controlClass} />
          {brand.logo && (
            <p className="mt-2 flex items-center gap-3 text-sm text-slate-900">
              <img src={brand.logo.src} alt="The current logo" width={brand.logo.width} height={brand.logo.height} />
              <label className="inline-flex items-center gap-2">
                <input type="checkbox" name="removeLogo" /> Use the product's mark instead
              </label>
            </p>
          )}
        </div>
      </div>
      <button type="submit" className={primaryButton}>
        Save brand draft
      </button>
    </ActionForm>
  );
}
