import type { Route } from "./+types/refund-policy";
import { PageShell, PolicyBody } from "~/site/PageShell";
import { pageMeta, rootInfo } from "~/site/seo";
import { useSiteInfo } from "~/site/use-site-info";

// Plain HTML with nothing for React to do: sent without its scripts (see root.tsx).
export const handle = { lean: true };

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(rootInfo(matches), {
    title: "Refund Policy",
    description:
      "Ask for a refund within 7 days of payment, before you have accessed more than 20% of the course. Reviewed in 3–5 business days, credited in 7–10.",
    path: "/RefundPolicy",
  });

export default function RefundPolicyPage() {
  const { site } = useSiteInfo();
  return (
    <PageShell>
      <PolicyBody title="Refund Policy" updated="1 January 2025">
        <p>
          We want you to be sure about your course. This policy explains when a fee paid to {site.name} can be refunded
          and how long it takes.
        </p>

        <h2>When you can ask for a refund</h2>
        <ul>
          <li>
            You must send your refund request <strong>within 7 days</strong> of the date of payment.
          </li>
          <li>
            A course is <strong>not refundable once you have accessed more than 20%</strong> of it (sessions attended,
            recordings watched or tasks received, whichever is greater).
          </li>
          <li>
            If we cancel or postpone a batch and you do not wish to join the next one, we refund the full fee regardless
            of these limits.
          </li>
        </ul>

        <h2>How to ask</h2>
        <p>
          Email <a href={`mailto:${site.email}`}>{site.email}</a> from the address you registered with, giving your
          name, course, date of payment and the payment reference. You do not need to give a reason, but feedback helps
          us improve.
        </p>

        <h2>What happens next</h2>
        <ul>
          <li>
            We review your request and reply with our decision within <strong>3–5 business days</strong>.
          </li>
          <li>
            Once approved, the refund is credited to the original payment method within{" "}
            <strong>7–10 business days</strong>. Your bank may take longer to show it.
          </li>
          <li>Payment gateway charges, if any, are not refundable unless we cancelled the batch.</li>
        </ul>

        <h2>Pay-after-placement courses</h2>
        <p>
          For pay-after-placement courses the fee falls due after you accept a job offer. A payment made for such a
          course is covered by the same 7-day and 20% rules from the date it is made.
        </p>

        <h2>Questions</h2>
        <p>
          Call us on {site.phone} or write to {site.email}. See also our{" "}
          <a href="/TermsAndConditions">Terms and Conditions</a>.
        </p>
      </PolicyBody>
    </PageShell>
  );
}
