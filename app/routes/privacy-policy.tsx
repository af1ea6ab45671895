import type { Route } from "./+types/privacy-policy";
import { PageShell, PolicyBody } from "~/site/PageShell";
import { pageMeta, rootInfo } from "~/site/seo";
import { storedData } from "~/site/stored-data";
import { useSiteInfo } from "~/site/use-site-info";

// Plain HTML with nothing for React to do: sent without its scripts (see root.tsx).
export const handle = { lean: true };

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(rootInfo(matches), {
    title: "Privacy Policy",
    description:
      "What personal data we collect from learners and clients, why, how long we keep it, and how to see, correct or delete it.",
    path: "/PrivacyPolicy",
  });

export default function PrivacyPolicyPage() {
  const { site } = useSiteInfo();
  return (
    <PageShell>
      <PolicyBody title="Privacy Policy" updated="23 November 2026">
        <p>
          This policy explains how {site.name} ("we", "us"), of {site.address}, collects and uses personal data when you
          visit this website, create a learner account, join a course or internship, or work with us on a software
          project.
        </p>

        <h2>What we collect</h2>
        <ul>
          <li>
            Account details you give us when you sign up: your username, email address, 10-digit phone number, the
            course you are interested in and your gender.
          </li>
          <li>
            Material you add to your dashboard: your profile photo, your résumé and the links to the tasks you submit.
          </li>
          <li>
            Records we create about your training: notices, tasks, certificates and, where you earn one, your offer
            letter.
          </li>
          <li>
            Technical data needed to run the site securely: server logs with your IP address, browser type and the pages
            requested, kept for up to 30 days.
          </li>
        </ul>

        <h2>Why we use it</h2>
        <ul>
          <li>To provide your learner dashboard, courses and internship, and to issue certificates.</li>
          <li>To contact you about your batch, your tasks and placement opportunities you have asked for.</li>
          <li>To keep the site and your account secure and to meet our legal and accounting obligations.</li>
        </ul>
        <p>
          We do not sell your personal data. With your consent we share your résumé and training record with hiring
          companies for placement. Payments are handled by our payment provider, which receives only the details it
          needs to process them; we never see or store your card or UPI credentials.
        </p>

        <h2>Cookies</h2>
        <p>
          We use only the cookies needed to keep you signed in. We use no advertising or cross-site tracking cookies,
          and this site loads no fonts, scripts or images from other websites.
        </p>

        <h2>How long we keep it</h2>
        <p>
          We keep your account data while your account is open and for up to 3 years after your last course, so that we
          can verify certificates for employers. Financial records are kept for as long as Indian tax law requires. You
          can ask us to delete your account at any time.
        </p>

        <h2>Children</h2>
        <p>
          Our courses are meant for people aged 18 or over; younger learners may enrol only with the consent of a parent
          or guardian. We do not knowingly collect any personal data from children under 13. If you believe a child
          under 13 has given us personal data, write to us and we will delete it.
        </p>

        <h2>What we store, in detail</h2>
        <StoredDataTable />

        <h2>Your rights</h2>
        <p>
          You may see the personal data we hold about you, correct it, or delete it, and you may withdraw consent you
          have given:
        </p>
        <ul>
          <li>
            <strong>See it:</strong> "Download my data" on your dashboard gives you a ZIP file with everything listed
            above that is about you, your files, and a README explaining each part.
          </li>
          <li>
            <strong>Correct it:</strong> change your phone and course under "Your details" on your dashboard; for
            anything else, write to us.
          </li>
          <li>
            <strong>Delete it:</strong> "Delete my account" on your dashboard signs you out everywhere and erases your
            account 7 days later (signing in before then cancels it). We keep only the record of what staff did, with
            your name replaced by "Deleted learner".
          </li>
          <li>
            <strong>Enquiries:</strong> an enquiry sent with the form on this site is not tied to an account, so it is
            not in your data download and is not deleted with your account. Write to us from the email or phone you gave
            and we will show it to you or delete it.
          </li>
          <li>
            <strong>Choose your emails:</strong> under "Email notifications" on your dashboard, or with the link at the
            end of every email.
          </li>
        </ul>
        <p>
          For anything else, write to <a href={`mailto:${site.email}`}>{site.email}</a>; we answer within 30 days.
        </p>

        <h2>Security</h2>
        <p>
          Passwords are stored only as salted hashes, all traffic to this site is encrypted in transit, and access to
          learner records is limited to staff who need it.
        </p>

        <h2>Changes and contact</h2>
        <p>
          We will post any change to this policy on this page with a new date. Questions go to {site.email} or{" "}
          {site.phone}. See also our <a href="/TermsAndConditions">Terms and Conditions</a> and{" "}
          <a href="/RefundPolicy">Refund Policy</a>.
        </p>
      </PolicyBody>
    </PageShell>
  );
}

/** What the database stores, table by table, why and for how long (app/site/stored-data.ts). */
function StoredDataTable() {
  return (
    <table>
      <thead>
        <tr>
          <th scope="col">What</th>
          <th scope="col">Why</th>
          <th scope="col">How long</th>
        </tr>
      </thead>
      <tbody>
        {storedData.map((item) => (
          <tr key={item.tables.join(" ")}>
            <td>{item.what}</td>
            <td>{item.why}</td>
            <td>{item.keptFor}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
