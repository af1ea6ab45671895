import { useId } from "react";
import { ActionForm } from "~/ui/ActionForm";
import { Field, controlClass, labelClass } from "~/ui/form";
import { primaryButton } from "~/ui/styles";
import { editorPanel } from "./BrandEditor";
import { CardsEditor } from "./CardsEditor";
import {
  aboutUsSchema,
  heroSchema,
  imageAccept,
  sectionHeadingSchema,
  sectionLimits,
  sectionNames,
  type CardSection,
  type HeroSection,
  type TextSection,
} from "./section-types";

/** The welcome header: its texts, picture and two buttons, then its three blurbs. */
export function HeroEditor({ hero }: { hero: HeroSection }) {
  const id = useId();
  const [primary, secondary] = hero.ctas;
  return (
    <>
      <ActionForm
        intent="save-hero"
        withFile
        schema={heroSchema}
        resetOnSuccess={false}
        label="Welcome header"
        className={editorPanel}
      >
        <div key={JSON.stringify(hero)} className="space-y-4">
          <Field
            id={`${id}-eyebrow`}
            name="eyebrow"
            label="Line above the headline (optional)"
            defaultValue={hero.eyebrow}
            maxLength={sectionLimits.line}
          />
          <Field
            id={`${id}-heading`}
            name="heading"
            label="Headline"
            defaultValue={hero.heading}
            maxLength={sectionLimits.headline}
          />
          <Field
            id={`${id}-intro`}
            name="intro"
            multiline
            label="Text under the headline (optional)"
            defaultValue={hero.intro}
            maxLength={sectionLimits.paragraph}
          />
          <div className="grid gap-4 sm:grid-cols-2">
            <Field
              id={`${id}-primary-label`}
              name="primaryLabel"
              label="First button's label"
              defaultValue={primary.label}
              maxLength={sectionLimits.line}
            />
            <Field
              id={`${id}-primary-href`}
              name="primaryHref"
              label="First button's link (#training, /about or https://…)"
              defaultValue={primary.href}
              maxLength={sectionLimits.href}
            />
            <Field
              id={`${id}-secondary-label`}
              name="secondaryLabel"
              label="Second button's label"
              defaultValue={secondary.label}
              maxLength={sectionLimits.line}
            />
            <Field
              id={`${id}-secondary-href`}
              name="secondaryHref"
              label="Second button's link"
              defaultValue={secondary.href}
              maxLength={sectionLimits.href}
            />
          </div>
          <fieldset className="space-y-2">
            <legend className={labelClass}>Picture</legend>
            {(
              [
                ["keep", hero.image.kind === "custom" ? "Keep the uploaded picture" : "Keep as it is"],
                ["built-in", "The product's illustration"],
                ["none", "No picture"],
              ] as const
            ).map(([value, label]) => (
              <label key={value} className="flex items-center gap-2 text-slate-900">
                <input type="radio" name="imageMode" value={value} defaultChecked={value === "keep"} /> {label}
              </label>
            ))}
            <label htmlFor={`${id}-image`} className={labelClass}>
              Or upload a picture (PNG, JPEG or WebP, at most 5 MB)
            </label>
            <input id={`${id}-image`} name="heroImage" type="file" accept={imageAccept} className={controlClass} />
          </fieldset>
          <Field
            id={`${id}-alt`}
            name="imageAlt"
            label="What the picture shows, for people who can't see it"
            defaultValue={hero.imageAlt}
            maxLength={sectionLimits.paragraph}
          />
        </div>
        <button type="submit" className={primaryButton}>
          Save header draft
        </button>
      </ActionForm>
      <h4 className="mt-6 text-lg font-semibold text-slate-900">Blurbs under the header</h4>
      <CardsEditor section="hero" cards={hero.cards} noun="a blurb" />
    </>
  );
}

/** A section of cards: its heading and introduction, then its cards. */
export function CardSectionEditor({
  section,
  content,
  noun,
  withValue = true,
}: {
  section: "services" | "features" | "advantages";
  content: CardSection;
  noun: string;
  withValue?: boolean;
}) {
  const id = useId();
  return (
    <>
      <ActionForm
        intent="save-section-heading"
        schema={sectionHeadingSchema}
        resetOnSuccess={false}
        label={`Heading of ${sectionNames[section]}`}
        className={editorPanel}
      >
        <input type="hidden" name="section" value={section} />
        <div key={content.heading + content.intro} className="space-y-4">
          <Field
            id={`${id}-heading`}
            name="heading"
            label="Heading"
            defaultValue={content.heading}
            maxLength={sectionLimits.line}
          />
          <Field
            id={`${id}-intro`}
            name="intro"
            multiline
            label="Introduction (optional)"
            defaultValue={content.intro}
            maxLength={sectionLimits.paragraph}
          />
        </div>
        <button type="submit" className={primaryButton}>
          Save heading draft
        </button>
      </ActionForm>
      <p className="mt-3 text-sm text-slate-700">A section whose cards are all hidden is not shown.</p>
      <CardsEditor section={section} cards={content.cards} noun={noun} withValue={withValue} />
    </>
  );
}

/** The footer's About Us: a heading and paragraphs (a blank line between them); empty, it is hidden. */
export function AboutUsEditor({ aboutUs }: { aboutUs: TextSection }) {
  const id = useId();
  return (
    <ActionForm
      intent="save-about-us"
      schema={aboutUsSchema}
      resetOnSuccess={false}
      label="About Us"
      className={editorPanel}
    >
      <div key={aboutUs.heading + aboutUs.body} className="space-y-4">
        <Field
          id={`${id}-heading`}
          name="heading"
          label="Heading"
          defaultValue={aboutUs.heading}
          maxLength={sectionLimits.line}
        />
        <div>
          <label htmlFor={`${id}-body`} className={labelClass}>
            Text (a blank line starts a new paragraph; empty hides About Us)
          </label>
          <textarea
            id={`${id}-body`}
            name="body"
            rows={6}
            maxLength={sectionLimits.body}
            defaultValue={aboutUs.body}
            className={controlClass}
          />
        </div>
      </div>
      <button type="submit" className={primaryButton}>
        Save About Us draft
      </button>
    </ActionForm>
  );
}
