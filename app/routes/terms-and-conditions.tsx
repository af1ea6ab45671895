import type { Route } from "./+types/terms-and-conditions";
import { PageShell, PolicyBody } from "~/site/PageShell";
import { pageMeta, rootInfo } from "~/site/seo";
import { useSiteInfo } from "~/site/use-site-info";

// Plain HTML with nothing for React to do: sent without its scripts (see root.tsx).
export const handle = { lean: true };

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(rootInfo(matches), {
    title: "Terms and Conditions",
    description:
      "The terms for using this website, creating a learner account and joining our courses and internships in Pune.",
    path: "/TermsAndConditions",
  });

export default function TermsAndConditionsPage() {
  const { site } = useSiteInfo();
  return (
    <PageShell>
      <PolicyBody title="Terms and Conditions" updated="1 January 2025">
        <p>
          These terms apply when you use this website, create a learner account or enrol in a course or internship with{" "}
          {site.name}, {site.address}. By creating an account you accept them.
        </p>

        <h2>Who may enrol</h2>
        <p>
          You must be at least <strong>18 years old</strong>, or have the{" "}
          <strong>consent of a parent or guardian</strong>, to create an account or enrol. We do not collect personal
          data from children under 13, and such children may not create an account.
        </p>

        <h2>Your account</h2>
        <ul>
          <li>Give accurate details, including a working email address and a 10-digit phone number.</li>
          <li>Keep your password secret; you are responsible for what is done with your account.</li>
          <li>Upload only your own résumé, photo and work, and nothing unlawful or offensive.</li>
        </ul>

        <h2>Courses, fees and payment</h2>
        <ul>
          <li>
            Course fees and durations are those shown on our home page when you register. Register Now takes you to our
            payment provider.
          </li>
          <li>
            For pay-after-placement courses, the fee becomes due once you accept a job offer, whether or not the offer
            came through our placement assistance.
          </li>
          <li>
            Refunds follow our <a href="/RefundPolicy">Refund Policy</a>: a request within 7 days of payment, for a
            course not accessed beyond 20%, reviewed in 3–5 business days and credited in 7–10 business days.
          </li>
        </ul>

        <h2>Certificates and offer letters</h2>
        <p>
          Certificates are issued when you complete the required tasks. Internship offer letters depend on your
          performance and are not guaranteed. We assist with placement but cannot promise a job.
        </p>

        <h2>Conduct</h2>
        <p>
          Treat trainers, staff and other learners with respect. We may suspend an account for cheating, harassment or
          misuse of the platform, after telling you why.
        </p>

        <h2>Intellectual property</h2>
        <p>
          Course material is ours and is for your personal learning only. The code you write in your own projects
          remains yours; work done on client projects during an internship belongs to the client.
        </p>

        <h2>Privacy</h2>
        <p>
          How we handle your personal data is described in our <a href="/PrivacyPolicy">Privacy Policy</a>.
        </p>

        <h2>Liability and law</h2>
        <p>
          We provide the website and courses with reasonable care and skill. To the extent the law allows, our liability
          is limited to the fees you paid us. These terms are governed by the laws of India, and the courts of Pune,
          Maharashtra have jurisdiction.
        </p>

        <h2>Contact</h2>
        <p>
          Questions about these terms: <a href={`mailto:${site.email}`}>{site.email}</a> or {site.phone}.
        </p>
      </PolicyBody>
    </PageShell>
  );
}
