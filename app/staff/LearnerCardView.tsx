import { Fragment, useId, useState } from "react";
import { profileField, profileFieldNames } from "~/accounts/sign-up-schema";
import { Link } from "react-router";
import { kindLabels, messageKinds, type MessageKind } from "~/messages/kinds";
import { secondaryButton } from "~/ui/styles";
import { Field } from "~/ui/form";
import { useAction } from "~/ui/use-action";
import { LostChange } from "~/ui/LostChange";
import { RoleChange } from "./RoleChange";
import type { LearnerCard, LearnerSummary } from "./staff-types";
import { formatDateTime } from "~/core/dates";

const smallButton =
  "inline-flex items-center justify-center rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-semibold text-slate-800 hover:bg-slate-50";

/**
 * One learner: a header that expands (and selects) the card, and the details the spec lists.
 * The expanded card is the one the side panel's Send buttons act on; its details come with the
 * page that expands it.
 */
export function LearnerCardView({
  learner,
  details,
  isAdmin,
  timeZone,
  offerLetter,
  roles,
  ticked,
  onTick,
  onToggle,
  onClear,
}: {
  learner: LearnerSummary;
  /** Ticked for a send to several learners. */
  ticked: boolean;
  onTick: (on: boolean) => void;
  /** The whole card when this one is expanded (selected). */
  details: LearnerCard | null;
  isAdmin: boolean;
  timeZone: string;
  /** The selected learner's offer letter (admins). */
  offerLetter: string;
  /** The role names in use (admins' role select). */
  roles: string[];
  onToggle: () => void;
  onClear: (kind: MessageKind) => void;
}) {
  const detailsId = useId();
  const selected = details !== null;
  return (
    <li
      className={`rounded-xl border bg-white shadow-sm ${selected ? "border-blue-800 ring-2 ring-blue-800" : "border-slate-200"}`}
      data-testid="learner-card"
      data-selected={selected ? "true" : undefined}
    >
      <div className="flex items-center">
        <label className="grid shrink-0 cursor-pointer place-items-center self-stretch pl-4">
          <input type="checkbox" className="h-5 w-5" checked={ticked} onChange={(e) => onTick(e.target.checked)} />
          <span className="sr-only">Select {learner.username}</span>
        </label>
        <h3 className="min-w-0 flex-1">
          <button
            type="button"
            className="flex w-full items-center gap-4 rounded-xl p-4 text-left hover:bg-slate-50"
            aria-expanded={selected}
            aria-controls={detailsId}
            onClick={onToggle}
          >
            <Photo learner={learner} size="h-10 w-10" />
            <span className="min-w-0 flex-1">
              <span className="block font-semibold text-slate-900">{learner.username}</span>
              <span className="block text-sm text-slate-700">{learner.course || "No course"}</span>
            </span>
            {selected && (
              <span className="rounded-full bg-blue-800 px-2.5 py-0.5 text-xs font-semibold text-white">Open</span>
            )}
            <span className="hidden text-sm text-slate-700 sm:inline">{countsLabel(learner)}</span>
          </button>
        </h3>
      </div>
      {details && (
        <div id={detailsId} className="border-t border-slate-200 p-4">
          <LearnerDetails learner={details} isAdmin={isAdmin} timeZone={timeZone} onClear={onClear} />
          <p className="mt-4">
            <Link
              to={`/staff/learners/${encodeURIComponent(learner.id)}`}
              className="font-semibold text-blue-800 underline"
            >
              Open {learner.username}&apos;s page
            </Link>
          </p>
          {isAdmin && <AdminTools key={learner.id} learner={details} offerLetter={offerLetter} roles={roles} />}
        </div>
      )}
    </li>
  );
}

/** Everything staff see about a learner, and (admins) the Clear buttons. */
export function LearnerDetails({
  learner,
  isAdmin,
  timeZone,
  onClear,
}: {
  learner: LearnerCard;
  isAdmin: boolean;
  timeZone: string;
  onClear: (kind: MessageKind) => void;
}) {
  return (
    <>
      <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
        <dt className="font-semibold text-slate-700">Record ID</dt>
        <dd className="break-all text-slate-900">{learner.id}</dd>
        <dt className="font-semibold text-slate-700">Email</dt>
        <dd className="break-all text-slate-900">{learner.email}</dd>
        {profileFieldNames.map((name) => (
          <Fragment key={name}>
            <dt className="font-semibold text-slate-700">{profileField(name).label}</dt>
            <dd className="text-slate-900">{profileField(name).shown?.(learner[name]) ?? learner[name]}</dd>
          </Fragment>
        ))}
        <dt className="font-semibold text-slate-700">Profile image</dt>
        <dd>
          <Photo learner={learner} size="h-24 w-24" described />
        </dd>
        <dt className="font-semibold text-slate-700">Counts</dt>
        <dd className="text-slate-900">{countsLabel(learner)}</dd>
        <dt className="font-semibold text-slate-700">Resume</dt>
        <dd className="text-slate-900">
          {learner.resume ? (
            <a className="font-semibold text-blue-800 underline" href={learner.resume.url} download>
              Download resume ({learner.resume.fileName})
            </a>
          ) : (
            "No resume uploaded."
          )}
        </dd>
        <dt className="font-semibold text-slate-700">Task links</dt>
        <dd>
          {learner.taskLinks.length === 0 ? (
            <span className="text-slate-900">No task links yet.</span>
          ) : (
            <ul className="space-y-1">
              {learner.taskLinks.map((link) => (
                <li key={link.id}>
                  <a
                    className="break-all text-blue-800 underline"
                    href={link.link}
                    target="_blank"
                    rel="noopener noreferrer"
                  >
                    {link.link}
                  </a>{" "}
                  <span className="text-slate-700">({formatDateTime(link.createdAt, timeZone)})</span>
                </li>
              ))}
            </ul>
          )}
        </dd>
      </dl>
      {isAdmin && (
        <div className="mt-4 flex flex-wrap gap-2">
          {messageKinds.map((kind) => (
            <button key={kind} type="button" className={smallButton} onClick={() => onClear(kind)}>
              Clear {kindLabels[kind].title}s
            </button>
          ))}
        </div>
      )}
    </>
  );
}

function countsLabel(learner: LearnerSummary): string {
  return messageKinds
    .map((kind) => {
      const count = learner.counts[kind];
      return `${count} ${count === 1 ? kindLabels[kind].singular : kindLabels[kind].plural}`;
    })
    .join(", ");
}

function Photo({ learner, size, described = false }: { learner: LearnerSummary; size: string; described?: boolean }) {
  if (!learner.photoUrl) {
    return (
      <span
        className={`${size} inline-grid shrink-0 place-items-center rounded-full bg-slate-200 font-semibold text-slate-700`}
        role={described ? "img" : undefined}
        aria-label={described ? `No profile image for ${learner.username}` : undefined}
        aria-hidden={described ? undefined : true}
      >
        {learner.username.slice(0, 1).toUpperCase()}
      </span>
    );
  }
  return (
    <img
      src={learner.photoUrl}
      alt={described ? `Profile image of ${learner.username}` : ""}
      className={`${size} shrink-0 rounded-full object-cover`}
      loading="lazy"
    />
  );
}

/**
 * The offer letter editor and the role change: admins only (the server checks again). The
 * letter comes with the page's data; what the admin types stays until they save.
 */
export function AdminTools({
  learner,
  offerLetter,
  roles,
}: {
  learner: LearnerCard;
  offerLetter: string;
  roles: string[];
}) {
  const offerId = useId();
  const [offer, setOffer] = useState(offerLetter);
  const action = useAction();

  return (
    <div className="mt-6 grid gap-6 border-t border-slate-200 pt-4 md:grid-cols-2">
      <div>
        <Field
          multiline
          id={offerId}
          label="Offer letter"
          className="[&_textarea]:h-32"
          value={offer}
          onChange={(e) => setOffer(e.target.value)}
        />
        <button
          type="button"
          className={`${secondaryButton} mt-2`}
          disabled={action.busy}
          onClick={() => action.submit({ intent: "save-offer-letter", learnerId: learner.id, html: offer })}
        >
          Save Offer Letter
        </button>
        <LostChange action={action} className="mt-2" />
      </div>
      <RoleChange userId={learner.id} current="" roles={roles} />
    </div>
  );
}
