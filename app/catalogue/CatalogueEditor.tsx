import { useId } from "react";
import { StaffSubpageHeading } from "~/ui/StaffSubpageHeading";
import { Field, controlClass, labelClass } from "~/ui/form";
import { formatRupees } from "~/core/money";
import { primaryButton, secondaryButton } from "~/ui/styles";
import { ActionForm } from "~/ui/ActionForm";
import { useAction, type IntentName } from "~/ui/use-action";
import { catalogueLimits } from "./catalogue-rules";
import type { loadCataloguePage } from "./catalogue-page.server";

type CatalogueData = Awaited<ReturnType<typeof loadCataloguePage>>;
type Course = CatalogueData["courses"][number];

const panel = "mt-4 space-y-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6";
const smallButton =
  "inline-flex items-center justify-center rounded-md border border-blue-800 bg-white px-3 py-1.5 text-sm font-semibold text-blue-800 hover:bg-blue-50";
const smallDangerButton =
  "inline-flex items-center justify-center rounded-md bg-red-700 px-3 py-1.5 text-sm font-semibold text-white shadow-sm hover:bg-red-800";

/** One button that submits an intent with a few hidden fields. */
function IntentButton({
  intent,
  fields,
  children,
  className = smallButton,
  disabled = false,
}: {
  intent: IntentName;
  fields: Record<string, string>;
  children: React.ReactNode;
  className?: string;
  disabled?: boolean;
}) {
  const action = useAction();
  return (
    <button
      type="button"
      className={`${className} disabled:cursor-not-allowed disabled:opacity-50`}
      disabled={disabled || action.busy}
      onClick={() => action.submit({ intent, ...fields })}
    >
      {children}
    </button>
  );
}

type FeeTermsChoice = CatalogueData["terms"][number];

function CourseFields({
  course,
  defaultPaymentUrl,
  terms,
}: {
  course?: Course;
  defaultPaymentUrl: string;
  terms: FeeTermsChoice[];
}) {
  const ids = useId();
  return (
    <>
      {course && <input type="hidden" name="slug" value={course.slug} />}
      <div className="grid gap-4 sm:grid-cols-3">
        <Field
          id={`${ids}-title`}
          name="title"
          label="Title"
          defaultValue={course?.title}
          maxLength={catalogueLimits.title}
          className="sm:col-span-3"
        />
        <Field
          id={`${ids}-duration`}
          name="duration"
          label="Duration"
          placeholder="6 Months"
          defaultValue={course?.duration}
          maxLength={catalogueLimits.duration}
        />
        <div className="sm:col-span-2">
          <Field
            id={`${ids}-price`}
            name="price"
            label="Price in rupees (empty: no amount shown)"
            inputMode="numeric"
            placeholder="15500"
            defaultValue={course?.price ?? ""}
            maxLength={catalogueLimits.priceTyped}
          />
        </div>
      </div>
      <div>
        <label htmlFor={`${ids}-terms`} className={labelClass}>
          Pay-after-placement fee terms
        </label>
        <select
          id={`${ids}-terms`}
          name="termsId"
          className={controlClass}
          defaultValue={course?.termsId ?? ""}
          aria-describedby={`${ids}-terms-hint`}
        >
          <option value="">None</option>
          {terms.map((option) => (
            <option key={option.id} value={option.id}>
              {option.name}
            </option>
          ))}
        </select>
        <p id={`${ids}-terms-hint`} className="mt-1 text-sm text-slate-700">
          Its card shows them in one line beside the price, and its batches use them unless a batch overrides them.
          Admins define fee terms under Batches and fee terms.
        </p>
      </div>
      <div>
        <label htmlFor={`${ids}-details`} className={labelClass}>
          Short description
        </label>
        <textarea
          id={`${ids}-details`}
          name="details"
          rows={3}
          maxLength={catalogueLimits.details}
          defaultValue={course?.details}
          className={controlClass}
        />
      </div>
      <div>
        <Field
          id={`${ids}-payment`}
          name="paymentUrl"
          type="url"
          label="Payment link (empty: the site's default)"
          placeholder={defaultPaymentUrl}
          defaultValue={course?.paymentUrl ?? ""}
          maxLength={catalogueLimits.paymentUrl}
          aria-describedby={`${ids}-payment-hint`}
        />
        <p id={`${ids}-payment-hint`} className="mt-1 text-sm text-slate-700">
          Register Now opens this address with <code>?course=</code> and the course's code added. The default is{" "}
          <span className="break-all">{defaultPaymentUrl}</span>.
        </p>
      </div>
      <label className="inline-flex items-center gap-2 text-slate-900">
        <input type="checkbox" name="shown" defaultChecked={course?.shown ?? true} />
        Shown on the landing page
      </label>
    </>
  );
}

/** One advertised course: its place in the order, its moves, and its form folded away. */
function CourseItem({
  course,
  index,
  count,
  defaultPaymentUrl,
  terms,
}: {
  course: Course;
  index: number;
  count: number;
  defaultPaymentUrl: string;
  terms: FeeTermsChoice[];
}) {
  return (
    <li className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <h3 className="mr-auto font-semibold text-slate-900">
          {index + 1}. {course.title}{" "}
          <span className="font-normal text-slate-700">
            ({course.duration}, {course.price === null ? "no price shown" : formatRupees(course.price * 100)})
          </span>{" "}
          <span className={course.shown ? "text-green-800" : "text-amber-800"}>
            {course.shown ? "Shown" : "Hidden"}
          </span>
        </h3>
        <span className="flex gap-2">
          <IntentButton intent="move-course" fields={{ slug: course.slug, direction: "up" }} disabled={index === 0}>
            Move up<span className="sr-only"> {course.title}</span>
          </IntentButton>
          <IntentButton
            intent="move-course"
            fields={{ slug: course.slug, direction: "down" }}
            disabled={index === count - 1}
          >
            Move down<span className="sr-only"> {course.title}</span>
          </IntentButton>
        </span>
      </div>
      <p className="mt-1 text-sm text-slate-700" data-testid="course-terms">
        {course.termsLine ? `Fee terms ${course.termsName}: ${course.termsLine}` : "No fee terms"}
      </p>
      <details className="mt-2">
        <summary className="cursor-pointer font-medium text-blue-800">
          Edit<span className="sr-only"> {course.title}</span>
        </summary>
        <ActionForm
          intent="save-course"
          label={`Edit ${course.title}`}
          className="mt-4 space-y-4"
          resetOnSuccess={false}
        >
          {/* Keyed by what is stored, so the fields show the server's values after a save. */}
          <div key={JSON.stringify(course)} className="space-y-4">
            <CourseFields course={course} defaultPaymentUrl={defaultPaymentUrl} terms={terms} />
          </div>
          <button type="submit" className={primaryButton}>
            Save {course.title}
          </button>
        </ActionForm>
      </details>
    </li>
  );
}

/** One sign-up course option, with its moves and its removal. */
function SignUpOptionItem({ label, index, count }: { label: string; index: number; count: number }) {
  return (
    <li className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-2">
      <span className="mr-auto text-slate-900">
        {index + 1}. {label}
      </span>
      <span className="flex gap-2">
        <IntentButton intent="move-sign-up-option" fields={{ label, direction: "up" }} disabled={index === 0}>
          Up<span className="sr-only"> {label}</span>
        </IntentButton>
        <IntentButton intent="move-sign-up-option" fields={{ label, direction: "down" }} disabled={index === count - 1}>
          Down<span className="sr-only"> {label}</span>
        </IntentButton>
        <IntentButton intent="remove-sign-up-option" fields={{ label }} className={smallDangerButton}>
          Remove<span className="sr-only"> {label}</span>
        </IntentButton>
      </span>
    </li>
  );
}

/** Shown courses whose advertised price and fee terms disagree, and why (decision 024). */
function PriceTermsWarning({ disagreements }: { disagreements: CatalogueData["disagreements"] }) {
  const id = useId();
  if (disagreements.length === 0) return null;
  return (
    <section aria-labelledby={id} className="mt-6 rounded-xl border border-amber-400 bg-amber-50 p-4 sm:p-6">
      <h2 id={id} className="text-lg font-semibold text-slate-900">
        Advertised prices that disagree with fee terms
      </h2>
      <p className="mt-1 text-slate-800">
        A visitor reads the price beside the terms, and a learner later signs the terms: change the price, or the
        course&rsquo;s fee terms, in its Edit form below.
      </p>
      <ul className="mt-3 list-disc space-y-1 pl-5 text-slate-900">
        {disagreements.map((course) => (
          <li key={course.title}>
            <strong>{course.title}</strong>: {course.why}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The advertised courses and the sign-up course options, as visitors see them (admins). */
export function CatalogueEditor({ data }: { data: CatalogueData }) {
  const ids = useId();
  const { courses, options, missingOptions, disagreements, defaultPaymentUrl } = data;
  return (
    <>
      <StaffSubpageHeading title="Courses" />
      <p className="mt-2 max-w-2xl text-slate-700">
        The Pay After Placement courses on the landing page and the courses the sign-up form offers. Changes show to
        visitors at once.
      </p>

      {missingOptions.length > 0 && (
        <section
          aria-labelledby={`${ids}-missing`}
          className="mt-6 rounded-xl border border-amber-400 bg-amber-50 p-4 sm:p-6"
        >
          <h2 id={`${ids}-missing`} className="text-lg font-semibold text-slate-900">
            Advertised courses missing from the sign-up form
          </h2>
          <p className="mt-1 text-slate-800">
            Visitors who register for these cannot pick them when they sign up: no sign-up option has the same title.
          </p>
          <ul className="mt-3 flex flex-wrap gap-3">
            {missingOptions.map((title) => (
              <li key={title}>
                <IntentButton intent="add-sign-up-option" fields={{ label: title }}>
                  Add &lsquo;{title}&rsquo; to sign-up options
                </IntentButton>
              </li>
            ))}
          </ul>
        </section>
      )}

      <PriceTermsWarning disagreements={disagreements} />

      <section aria-labelledby={`${ids}-courses`} className="mt-8">
        <h2 id={`${ids}-courses`} className="text-2xl font-bold text-slate-900">
          Advertised courses
        </h2>
        <p className="mt-1 text-slate-700">
          {courses.filter((course) => course.shown).length} of {courses.length} shown, in this order.
        </p>
        <ol className="mt-4 space-y-3">
          {courses.map((course, index) => (
            <CourseItem
              key={course.slug}
              course={course}
              index={index}
              count={courses.length}
              defaultPaymentUrl={defaultPaymentUrl}
              terms={data.terms}
            />
          ))}
        </ol>
        <details className="mt-4">
          <summary className={`${secondaryButton} cursor-pointer`}>Add a course</summary>
          <ActionForm intent="add-course" label="Add a course" className={panel}>
            <CourseFields defaultPaymentUrl={defaultPaymentUrl} terms={data.terms} />
            <button type="submit" className={primaryButton}>
              Add course
            </button>
          </ActionForm>
        </details>
      </section>

      <section aria-labelledby={`${ids}-options`} className="mt-10">
        <h2 id={`${ids}-options`} className="text-2xl font-bold text-slate-900">
          Sign-up course options
        </h2>
        <p className="mt-1 max-w-2xl text-slate-700">
          What the sign-up form and the learners&rsquo; profiles offer, in this order ({options.length}). Learners who
          chose a course you remove keep it on their profile.
        </p>
        <ActionForm intent="add-sign-up-option" label="Add a sign-up option" className={panel}>
          <Field
            id={`${ids}-new-option`}
            name="label"
            label="Course name"
            maxLength={catalogueLimits.optionLabel}
            beside={
              <button type="submit" className={primaryButton}>
                Add option
              </button>
            }
          />
        </ActionForm>
        <ol className="mt-4 divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
          {options.map((label, index) => (
            <SignUpOptionItem key={label} label={label} index={index} count={options.length} />
          ))}
        </ol>
      </section>
    </>
  );
}
