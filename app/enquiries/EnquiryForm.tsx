import type { ReactNode } from "react";
import { useActionData, useLocation, useMatches } from "react-router";
import { controlClass, labelClass } from "~/ui/form";
import { primaryButton, secondaryButton } from "~/ui/styles";
import type { EnquiryAnswer } from "./enquiry-form-page.server";
import {
  callbackTimeLabels,
  callbackTimes,
  enquiryFieldNames,
  enquiryLimits,
  type EnquiryField,
} from "./enquiry-fields";

/**
 * The courses the form offers: its route's loader returns `{ enquiryCourses }` (enquiryCourses()),
 * and `enquiryPreview` on the admins' preview of the site, where the form must send nothing.
 */
function useEnquiryCourses(): { courses: string[]; preview: boolean } {
  const data = useMatches().at(-1)?.loaderData as { enquiryCourses?: string[]; enquiryPreview?: true } | undefined;
  if (!data?.enquiryCourses) throw new Error("The enquiry form needs its route's loader to return { enquiryCourses }");
  return { courses: data.enquiryCourses, preview: data.enquiryPreview === true };
}

const fieldLabels: Record<EnquiryField, string> = {
  name: "Your name",
  phone: "Phone (10 digits)",
  email: "Email (optional)",
  course: "Course of interest",
  message: "Your message",
  callbackTime: "Best time to call you back",
};

const emptyValues = Object.fromEntries(enquiryFieldNames.map((name) => [name, ""])) as Record<EnquiryField, string>;

/**
 * The public enquiry form (landing page and /contact). A plain HTML form: these pages are sent
 * without React, so it posts to the page itself and the answer is the whole page again, with
 * the confirmation, the check step or the problems in place of the form (enquiry-form-page.server.ts).
 */
export function EnquirySection() {
  const { courses, preview } = useEnquiryCourses();
  const { pathname } = useLocation();
  const answer = useActionData() as EnquiryAnswer | { form?: undefined } | undefined;
  const result = answer?.form === "enquiry" ? answer : undefined;
  // "/" is the index route: its action needs ?index. The fragment brings the answer into view.
  const action = `${pathname === "/" ? "/?index" : pathname}#enquiry`;
  return (
    <section
      id="enquiry"
      aria-labelledby="enquiry-heading"
      className="mt-10 scroll-mt-20 border-t border-slate-200 pt-8"
    >
      <h2 id="enquiry-heading" className="text-2xl font-bold text-slate-900">
        Send us an enquiry
      </h2>
      <p className="mt-2 text-slate-700">Tell us what you want to learn; we call you back.</p>
      {result?.step === "sent" ? (
        <p role="status" className="mt-6 rounded-md border border-green-700 bg-green-50 p-4 font-medium text-green-900">
          {result.message}
        </p>
      ) : result?.step === "check" ? (
        <CheckStep action={action} answer={result} />
      ) : (
        <EnquiryFields action={preview ? null : action} courses={courses} answer={result} />
      )}
    </section>
  );
}

function EnquiryFields({
  action,
  courses,
  answer,
}: {
  /** Null in the admins' preview: the form is shown disabled and posts nowhere. */
  action: string | null;
  courses: string[];
  answer: Extract<EnquiryAnswer, { step: "form" }> | undefined;
}) {
  const values = answer?.values ?? emptyValues;
  const errors = answer?.errors ?? {};
  const errorId = (name: EnquiryField) => `enquiry-${name}-error`;
  /** What every control of the form carries: its id, name, value, look and problem. */
  const control = (name: EnquiryField) => ({
    id: `enquiry-${name}`,
    name,
    defaultValue: values[name],
    className: controlClass,
    disabled: action === null,
    ...(errors[name] ? { "aria-invalid": true, "aria-describedby": errorId(name) } : {}),
  });
  /** A control with its label above and its problem below. */
  const labelled = (name: EnquiryField, className: string | undefined, input: ReactNode) => (
    <div className={className}>
      <label htmlFor={`enquiry-${name}`} className={labelClass}>
        {fieldLabels[name]}
      </label>
      {input}
      {errors[name] && (
        <p id={errorId(name)} className="mt-1 text-sm font-medium text-red-700">
          {errors[name]}
        </p>
      )}
    </div>
  );
  return (
    <form
      {...(action === null ? {} : { method: "post", action, "data-enquiry-form": "" })}
      className="mt-5 grid grid-cols-2 gap-3 sm:gap-4"
    >
      {action === null && <PreviewNote />}
      <input type="hidden" name="intent" value="enquiry" />
      {/* Filled in by the page's script with a time the server signed (app/site/enhance.ts). */}
      <input type="hidden" name="formTime" value="" />
      {/* The enquiry's change key, made by the page's script (the page is cached: not here). */}
      <input type="hidden" name="actionKey" value="" />
      {answer?.message && (
        <p role="alert" className="col-span-2 rounded-md border border-red-700 bg-red-50 p-3 font-medium text-red-800">
          {answer.message}
        </p>
      )}
      {labelled("name", undefined, <input {...control("name")} required maxLength={100} autoComplete="name" />)}
      {labelled(
        "phone",
        undefined,
        <input
          {...control("phone")}
          // Text: HTML lets the national number's autofill (10 digits, no +91) fill text fields
          // only, not tel ones; inputMode gives the same numeric keypad.
          type="text"
          required
          inputMode="numeric"
          pattern="[0-9]{10}"
          minLength={10}
          maxLength={10}
          autoComplete="tel-national"
        />,
      )}
      {labelled(
        "email",
        "col-span-2 sm:col-span-1",
        <input {...control("email")} type="email" maxLength={254} autoComplete="email" />,
      )}
      {labelled(
        "course",
        "col-span-2 sm:col-span-1",
        <select {...control("course")} required>
          <option value="">Choose a course</option>
          {courses.map((course) => (
            <option key={course} value={course}>
              {course}
            </option>
          ))}
        </select>,
      )}
      {labelled(
        "message",
        "col-span-2",
        <textarea {...control("message")} required rows={3} maxLength={enquiryLimits.message} />,
      )}
      {labelled(
        "callbackTime",
        "col-span-2 sm:col-span-1",
        // Not `required`: one of its times is always chosen, and HTML wants a required select to
        // open on an empty choice.
        <select {...control("callbackTime")} defaultValue={values.callbackTime || "any"}>
          {callbackTimes.map((time) => (
            <option key={time} value={time}>
              {callbackTimeLabels[time]}
            </option>
          ))}
        </select>,
      )}
      {/* The honeypot: out of sight and out of the tab order, so only bots fill it in. */}
      <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
        <label htmlFor="enquiry-website">Leave this empty</label>
        <input id="enquiry-website" name="website" type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
      </div>
      <div className="col-span-2 flex items-end sm:col-span-1">
        <button type="submit" disabled={action === null} className={`${primaryButton} w-full sm:w-auto`}>
          Send enquiry
        </button>
      </div>
    </form>
  );
}

const PreviewNote = () => (
  <p className="col-span-2 rounded-md border border-slate-300 bg-slate-50 p-3 text-slate-800">
    Preview: visitors can send this form once the site is published. Here it sends nothing.
  </p>
);

/** Without JavaScript: the details to check, sent back with the signed time of this step. */
function CheckStep({ action, answer }: { action: string; answer: Extract<EnquiryAnswer, { step: "check" }> }) {
  const { values } = answer;
  const shown: [EnquiryField, string][] = [
    ["name", values.name],
    ["phone", values.phone],
    ["email", values.email || "(not given)"],
    ["course", values.course],
    ["callbackTime", callbackTimeLabels[values.callbackTime as keyof typeof callbackTimeLabels] ?? values.callbackTime],
    ["message", values.message],
  ];
  return (
    <form method="post" action={action} className="mt-6">
      <p role="status" className="font-medium text-slate-900">
        {answer.message}
      </p>
      <dl className="mt-4 grid gap-3 sm:grid-cols-2">
        {shown.map(([name, value]) => (
          <div key={name} className={name === "message" ? "sm:col-span-2" : undefined}>
            <dt className="text-sm font-semibold text-slate-600">{fieldLabels[name]}</dt>
            <dd className="mt-1 whitespace-pre-wrap text-slate-900 [overflow-wrap:anywhere]">{value}</dd>
          </div>
        ))}
      </dl>
      <input type="hidden" name="intent" value="enquiry" />
      <input type="hidden" name="token" value={answer.token} />
      <input type="hidden" name="website" value="" />
      {enquiryFieldNames.map((name) => (
        <input key={name} type="hidden" name={name} value={values[name]} />
      ))}
      <div className="mt-6 flex flex-wrap gap-3">
        <button type="submit" className={primaryButton}>
          Send enquiry
        </button>
        <button type="submit" name="step" value="edit" className={secondaryButton}>
          Change details
        </button>
      </div>
    </form>
  );
}
