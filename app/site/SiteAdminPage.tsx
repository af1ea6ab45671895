import { useId, type ComponentProps } from "react";
import { StaffSubpageHeading } from "~/ui/StaffSubpageHeading";
import { Field, controlClass, labelClass } from "~/ui/form";
import { dangerButton, primaryButton, secondaryButton } from "~/ui/styles";
import { ActionForm } from "~/ui/ActionForm";
import { imageAccept, proofLimits } from "./proof-rules";
import type { loadSiteAdminPage } from "./site-admin-page.server";
import { SectionsAdmin } from "./sections/SectionsAdmin";

type SiteAdminData = Awaited<ReturnType<typeof loadSiteAdminPage>>;
type Testimonial = SiteAdminData["testimonials"][number];

const panel = "mt-4 space-y-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6";

/** The page's forms: multipart (several carry an image), in a panel unless told otherwise. */
function SiteForm({ className = panel, ...props }: Omit<ComponentProps<typeof ActionForm>, "withFile">) {
  return <ActionForm withFile className={className} {...props} />;
}

function TestimonialFields({ testimonial }: { testimonial?: Testimonial }) {
  const ids = useId();
  return (
    <>
      {testimonial && <input type="hidden" name="id" value={testimonial.id} />}
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id={`${ids}-name`} name="name" label="Learner's name" defaultValue={testimonial?.name} maxLength={100} />
        <Field id={`${ids}-course`} name="course" label="Course" defaultValue={testimonial?.course} maxLength={100} />
      </div>
      <div>
        <label htmlFor={`${ids}-quote`} className={labelClass}>
          Quote
        </label>
        <textarea
          id={`${ids}-quote`}
          name="quote"
          rows={3}
          maxLength={proofLimits.quote}
          defaultValue={testimonial?.quote}
          className={controlClass}
        />
      </div>
      <div>
        <label htmlFor={`${ids}-photo`} className={labelClass}>
          Photo (optional)
        </label>
        <input id={`${ids}-photo`} name="photo" type="file" accept={imageAccept} className={controlClass} />
        <p className="mt-1 text-sm text-slate-700">
          PNG, JPEG or WebP, at most {proofLimits.maxUploadBytes / 1024} KB.
        </p>
      </div>
      <fieldset className="rounded-md border border-amber-300 bg-amber-50 p-3">
        <legend className="px-1 text-sm font-semibold text-slate-900">Consent</legend>
        <label className="inline-flex items-center gap-2 text-slate-900">
          <input type="checkbox" name="consent" defaultChecked={testimonial?.consentAt != null} />
          The learner agreed to be shown on the website
        </label>
        <Field
          id={`${ids}-consent-note`}
          name="consentNote"
          label="How they agreed (required with consent)"
          placeholder="Signed form, 3 May"
          defaultValue={testimonial?.consentNote}
          maxLength={proofLimits.consentNote}
        />
        <p className="mt-1 text-sm text-slate-700">Without consent the testimonial is kept here but never shown.</p>
      </fieldset>
    </>
  );
}

/** One testimonial, folded: its state in the summary, its form and its delete button inside. */
function TestimonialItem({ testimonial }: { testimonial: Testimonial }) {
  return (
    <details className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <summary className="cursor-pointer font-semibold text-slate-900">
        {testimonial.name}, {testimonial.course}{" "}
        <span className={testimonial.consentAt ? "text-green-800" : "text-amber-800"}>
          ({testimonial.consentAt ? "shown: consent recorded" : "not shown: no consent"})
        </span>
      </summary>
      <SiteForm intent="save-testimonial" label={`Change ${testimonial.name}'s testimonial`} className="mt-4 space-y-4">
        {testimonial.photo && (
          <label className="inline-flex items-center gap-2 text-sm text-slate-900">
            <img src={testimonial.photo} alt="" width={48} height={48} className="rounded-full" />
            <input type="checkbox" name="removePhoto" /> Remove the photo
          </label>
        )}
        <TestimonialFields testimonial={testimonial} />
        <button type="submit" className={secondaryButton}>
          Save changes
        </button>
      </SiteForm>
      <SiteForm intent="delete-testimonial" label={`Delete ${testimonial.name}'s testimonial`} className="mt-4">
        <input type="hidden" name="id" value={testimonial.id} />
        <button type="submit" className={dangerButton}>
          Delete testimonial
        </button>
      </SiteForm>
    </details>
  );
}

/** Testimonials, hiring partners and the About page's text, as the public site shows them (admins). */
export function SiteAdminPage({ data }: { data: SiteAdminData }) {
  const ids = useId();
  return (
    <>
      <StaffSubpageHeading title="Public site" />
      <p className="mt-2 max-w-2xl text-slate-700">
        The institute's brand, the landing page's sections and the policies (drafted, then published); then the proof on
        the landing page and the About page, which show at once.
      </p>

      <SectionsAdmin sections={data.sections} drafts={data.drafts} />

      <section aria-labelledby={`${ids}-testimonials`} className="mt-8">
        <h2 id={`${ids}-testimonials`} className="text-2xl font-bold text-slate-900">
          Testimonials
        </h2>
        <SiteForm intent="save-testimonial" label="Add a testimonial">
          <h3 className="text-lg font-semibold text-slate-900">Add a testimonial</h3>
          <TestimonialFields />
          <button type="submit" className={primaryButton}>
            Add testimonial
          </button>
        </SiteForm>
        {data.testimonials.length === 0 ? (
          <p className="mt-4 text-slate-700">No testimonials yet.</p>
        ) : (
          <ul className="mt-4 space-y-4">
            {data.testimonials.map((testimonial) => (
              <li key={testimonial.id}>
                <TestimonialItem testimonial={testimonial} />
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby={`${ids}-partners`} className="mt-10">
        <h2 id={`${ids}-partners`} className="text-2xl font-bold text-slate-900">
          Hiring partners
        </h2>
        <SiteForm intent="add-partner" label="Add a hiring partner">
          <Field id={`${ids}-partner-name`} name="name" label="Company name" maxLength={100} />
          <div>
            <label htmlFor={`${ids}-logo`} className={labelClass}>
              Logo
            </label>
            <input id={`${ids}-logo`} name="logo" type="file" accept={imageAccept} className={controlClass} />
            <p className="mt-1 text-sm text-slate-700">
              PNG, JPEG or WebP, at most {proofLimits.maxUploadBytes / 1024} KB.
            </p>
          </div>
          <button type="submit" className={primaryButton}>
            Add partner
          </button>
        </SiteForm>
        <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {data.partners.map((partner) => (
            <li key={partner.id} className="flex items-center gap-4 rounded-xl border border-slate-200 bg-white p-4">
              <img src={partner.logo} alt={`${partner.name} logo`} className="h-10 w-auto max-w-32" />
              <span className="mr-auto font-semibold text-slate-900">{partner.name}</span>
              <SiteForm intent="delete-partner" label={`Remove ${partner.name}`} className="">
                <input type="hidden" name="id" value={partner.id} />
                <button type="submit" className={secondaryButton}>
                  Remove<span className="sr-only"> {partner.name}</span>
                </button>
              </SiteForm>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby={`${ids}-about`} className="mt-10">
        <h2 id={`${ids}-about`} className="text-2xl font-bold text-slate-900">
          About page
        </h2>
        <SiteForm intent="save-page" label="About page text">
          <input type="hidden" name="slug" value="about" />
          <div>
            <label htmlFor={`${ids}-about-body`} className={labelClass}>
              Text (a blank line starts a new paragraph)
            </label>
            <textarea
              id={`${ids}-about-body`}
              name="body"
              rows={10}
              maxLength={proofLimits.pageBody}
              defaultValue={data.about}
              key={data.about}
              className={controlClass}
            />
          </div>
          <button type="submit" className={primaryButton}>
            Save About page
          </button>
        </SiteForm>
      </section>
    </>
  );
}
