import { Link } from "react-router";
import { formatDocumentDate } from "~/documents/words";
import { ActionForm } from "~/ui/ActionForm";
import { useAction } from "~/ui/use-action";
import { card, primaryButton, secondaryButton } from "~/ui/styles";
import type { loadMyPlacement } from "./placement-page.server";
import { AddApplication } from "./AddApplication";
import { ApplicationCard } from "./ApplicationCard";
import { EnrolmentCard } from "./EnrolmentCard";

type Data = Awaited<ReturnType<typeof loadMyPlacement>>;

/** The learner's 'My placement': batches and agreements, applications and offers, dues, consent. */
export function MyPlacementPage({ data }: { data: Data }) {
  const { placement } = data;
  // Held here, where it outlives the forms: giving or withdrawing consent swaps one form for
  // the other, and the page's new data can arrive in the same render as the answer.
  const consent = useAction();
  return (
    <>
      <p>
        <Link to="/dashboard" className="font-semibold text-blue-800 underline">
          Back to the dashboard
        </Link>
      </p>
      <h1 className="mt-4 text-3xl font-bold text-slate-900">My placement</h1>

      <section aria-labelledby="my-batches" className="mt-8 space-y-4">
        <h2 id="my-batches" className="text-2xl font-bold text-slate-900">
          My batches
        </h2>
        {placement.enrolments.length === 0 ? (
          <p className="text-slate-700">
            You are not enrolled in a batch yet. The institute enrols you when you join one.
          </p>
        ) : (
          placement.enrolments.map((enrolment) => (
            <EnrolmentCard key={enrolment.id} enrolment={enrolment} viewer="learner" timeZone={data.timeZone} />
          ))
        )}
      </section>

      <section aria-labelledby="my-applications" className="mt-10 space-y-4">
        <h2 id="my-applications" className="text-2xl font-bold text-slate-900">
          My applications
        </h2>
        <AddApplication viewer="learner" />
        {placement.applications.length === 0 ? (
          <p className="text-slate-700">
            No applications yet. Add each job you apply for and move it along as it goes.
          </p>
        ) : (
          <ul className="space-y-4">
            {placement.applications.map((application) => (
              <ApplicationCard key={application.id} application={application} viewer="learner" />
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="my-consent" className={`${card} mt-10`}>
        <h2 id="my-consent" className="text-2xl font-bold text-slate-900">
          Being named on the public site
        </h2>
        <p className="mt-2 text-slate-800">{data.consentText}</p>
        {placement.consent ? (
          <ActionForm intent="withdraw-consent" className="mt-3" label="Withdraw consent" submitWith={consent}>
            <p className="text-sm text-slate-700" data-testid="consent-given">
              You agreed on {formatDocumentDate(placement.consent.givenAt.slice(0, 10))}.
            </p>
            <button type="submit" className={`${secondaryButton} mt-2`}>
              Withdraw my consent
            </button>
          </ActionForm>
        ) : (
          <ActionForm intent="give-consent" className="mt-3" label="Give consent" submitWith={consent}>
            <button type="submit" className={primaryButton}>
              I agree
            </button>
          </ActionForm>
        )}
      </section>
    </>
  );
}
