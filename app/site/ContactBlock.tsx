import type { contactUs as ContactUs } from "~/content/site-content";
import { EnquirySection } from "~/enquiries/EnquiryForm";
import { paragraphsOf } from "./proof-rules";
import type { TextSection } from "./sections/section-types";
import { useSiteInfo } from "./use-site-info";

/**
 * About Us and Contact Us, with the institute's details from the configuration, then the
 * enquiry form. The copy comes in as props so the landing page can take it from loader data
 * instead of its bundle.
 */
export function ContactBlock({ aboutUs, contactUs }: { aboutUs: TextSection; contactUs: typeof ContactUs }) {
  const { site } = useSiteInfo();
  const paragraphs = paragraphsOf(aboutUs.body);
  return (
    <>
      <div className="grid gap-10 md:grid-cols-2">
        {/* Left empty by the admins, About Us is not shown (a heading alone says nothing). */}
        {paragraphs.length > 0 && (
          <section aria-labelledby="about-us-heading">
            <h2 id="about-us-heading" className={aboutUs.heading ? "text-2xl font-bold text-slate-900" : "sr-only"}>
              {aboutUs.heading || "About Us"}
            </h2>
            {paragraphs.map((paragraph, index) => (
              <p key={index} className="mt-4 leading-relaxed text-slate-700">
                {paragraph}
              </p>
            ))}
          </section>
        )}
        <section aria-labelledby="contact-us-heading">
          <h2 id="contact-us-heading" className="text-2xl font-bold text-slate-900">
            {contactUs.heading}
          </h2>
          <p className="mt-4 leading-relaxed text-slate-700">{contactUs.intro}</p>
          <dl className="mt-6 space-y-4">
            <div>
              <dt className="text-sm font-semibold tracking-wide text-slate-600 uppercase">Email</dt>
              <dd className="mt-1">
                <a href={`mailto:${site.email}`} className="font-medium text-blue-800 underline underline-offset-4">
                  {site.email}
                </a>
              </dd>
            </div>
            <div>
              <dt className="text-sm font-semibold tracking-wide text-slate-600 uppercase">Phone</dt>
              <dd className="mt-1">
                <a
                  href={`tel:${site.phone.replace(/[^+\d]/g, "")}`}
                  className="font-medium text-blue-800 underline underline-offset-4"
                >
                  {site.phone}
                </a>
              </dd>
            </div>
            {site.whatsapp && (
              <div>
                <dt className="text-sm font-semibold tracking-wide text-slate-600 uppercase">WhatsApp</dt>
                <dd className="mt-1">
                  <a
                    href={`https://wa.me/${site.whatsapp}`}
                    target="_blank"
                    rel="noopener noreferrer"
                    className="font-medium text-blue-800 underline underline-offset-4"
                  >
                    Chat with us on WhatsApp<span className="text-sm text-slate-600"> (opens in a new tab)</span>
                  </a>
                </dd>
              </div>
            )}
            <div>
              <dt className="text-sm font-semibold tracking-wide text-slate-600 uppercase">Address</dt>
              <dd className="mt-1">
                <address className="text-slate-800 not-italic">{site.address}</address>
              </dd>
            </div>
            <div>
              <dt className="text-sm font-semibold tracking-wide text-slate-600 uppercase">Office hours</dt>
              <dd className="mt-1 text-slate-800">{contactUs.hours}</dd>
            </div>
          </dl>
        </section>
      </div>
      <EnquirySection />
    </>
  );
}
