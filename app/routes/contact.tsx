import type { Route } from "./+types/contact";
import { contactUs } from "~/content/site-content";
import { enquiryCourses } from "~/enquiries/enquiry-courses.server";
import { enquiryAction, readEnquiryForm } from "~/enquiries/enquiry-form-page.server";
import { refuse } from "~/accounts/permissions.server";
import { getServices } from "~/platform/services.server";
import { publishedSections } from "~/site/sections/sections.server";
import { ContactBlock } from "~/site/ContactBlock";
import { PageShell } from "~/site/PageShell";
import { pageMeta, rootInfo } from "~/site/seo";

// Plain HTML with nothing for React to do (the enquiry form is a plain POST): sent without its
// scripts (see root.tsx).
export const handle = { lean: true };

export async function loader() {
  const { database, config } = await getServices();
  const [courses, sections] = await Promise.all([
    enquiryCourses(database.db, config.paymentUrl),
    publishedSections(database.db, config.site),
  ]);
  return { enquiryCourses: courses, aboutUs: sections["about-us"] };
}

export async function action({ request }: Route.ActionArgs) {
  const form = await readEnquiryForm(request);
  return form ? enquiryAction(request, form) : refuse(400, "This page takes only the enquiry form.");
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(rootInfo(matches), {
    title: "Contact",
    description: "Email, phone and our Pune address for courses, internships and software projects.",
    path: "/contact",
  });

export default function ContactPage({ loaderData }: Route.ComponentProps) {
  return (
    <PageShell wide>
      <h1 className="mb-10 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Contact</h1>
      <ContactBlock aboutUs={loaderData.aboutUs} contactUs={contactUs} />
    </PageShell>
  );
}
