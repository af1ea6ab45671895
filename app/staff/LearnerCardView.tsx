import { useEffect, useId, useState } from "react";
import type { MessageKind } from "~/db/schema";
import { formatDateTime } from "~/dashboard/format";
import { secondaryButton } from "~/ui/styles";
import { staffClient } from "./staff-client";
import { kindLabels, type LearnerCard } from "./staff-types";

const kinds: MessageKind[] = ["notice", "task", "certificate"];

const smallButton =
  "inline-flex items-center justify-center rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-semibold text-slate-800 hover:bg-slate-50";

/**
 * One learner: a header that expands (and selects) the card, and the details the spec lists.
 * The expanded card is the one the side panel's Send buttons act on.
 */
export function LearnerCardView({
  learner,
  selected,
  isAdmin,
  timeZone,
  onToggle,
  onClear,
  onSaved,
  onError,
}: {
  learner: LearnerCard;
  selected: boolean;
  isAdmin: boolean;
  timeZone: string;
  onToggle: () => void;
  onClear: (kind: MessageKind) => void;
  /** A success line for the page (offer letter saved, role changed). */
  onSaved: (message: string, roleChanged: boolean) => void;
  onError: (message: string) => void;
}) {
  const detailsId = useId();
  return (
    <li
      className={`rounded-xl border bg-white shadow-sm ${selected ? "border-blue-800 ring-2 ring-blue-800" : "border-slate-200"}`}
      data-testid="learner-card"
      data-selected={selected ? "true" : undefined}
    >
      <h3>
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
            <span className="rounded-full bg-blue-800 px-2.5 py-0.5 text-xs font-semibold text-white">Selected</span>
          )}
          <span className="hidden text-sm text-slate-700 sm:inline">{countsLabel(learner)}</span>
        </button>
      </h3>
      {selected && (
        <div id={detailsId} className="border-t border-slate-200 p-4">
          <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
            <dt className="font-semibold text-slate-700">Record ID</dt>
            <dd className="break-all text-slate-900">{learner.id}</dd>
            <dt className="font-semibold text-slate-700">Name</dt>
            <dd className="text-slate-900">{learner.username}</dd>
            <dt className="font-semibold text-slate-700">Phone</dt>
            <dd className="text-slate-900">{learner.phone}</dd>
            <dt className="font-semibold text-slate-700">Email</dt>
            <dd className="break-all text-slate-900">{learner.email}</dd>
            <dt className="font-semibold text-slate-700">Course</dt>
            <dd className="text-slate-900">{learner.course}</dd>
            <dt className="font-semibold text-slate-700">Gender</dt>
            <dd className="text-slate-900 capitalize">{learner.gender}</dd>
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
          <div className="mt-4 flex flex-wrap gap-2">
            {kinds.map((kind) => (
              <button key={kind} type="button" className={smallButton} onClick={() => onClear(kind)}>
                Clear {kindLabels[kind].title}s
              </button>
            ))}
          </div>
          {isAdmin && <AdminTools learner={learner} onSaved={onSaved} onError={onError} />}
        </div>
      )}
    </li>
  );
}

function countsLabel(learner: LearnerCard): string {
  const { notice, task, certificate } = learner.counts;
  return `${notice} ${notice === 1 ? "notice" : "notices"}, ${task} ${task === 1 ? "task" : "tasks"}, ${certificate} ${certificate === 1 ? "certificate" : "certificates"}`;
}

function Photo({ learner, size, described = false }: { learner: LearnerCard; size: string; described?: boolean }) {
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

/** The offer letter editor and the role change: admins only (the server checks again). */
function AdminTools({
  learner,
  onSaved,
  onError,
}: {
  learner: LearnerCard;
  onSaved: (message: string, roleChanged: boolean) => void;
  onError: (message: string) => void;
}) {
  const offerId = useId();
  const roleId = useId();
  const [offer, setOffer] = useState("");
  const [loaded, setLoaded] = useState(false);
  const [role, setRole] = useState("");
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let current = true;
    void staffClient.offerLetter(learner.id).then((answer) => {
      if (!current) return;
      if (answer.ok) setOffer(answer.data.offerLetter?.html ?? "");
      else onError(answer.message);
      setLoaded(true);
    });
    return () => {
      current = false;
    };
    // Loaded once per learner shown; onError is a fresh closure each render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [learner.id]);

  const saveOffer = async () => {
    setBusy(true);
    const answer = await staffClient.saveOfferLetter(learner.id, offer);
    setBusy(false);
    if (answer.ok) onSaved(answer.data.message, false);
    else onError(answer.message);
  };
  const saveRole = async () => {
    setBusy(true);
    const answer = await staffClient.changeRole(learner.id, role);
    setBusy(false);
    if (answer.ok) onSaved(answer.data.message, true);
    else onError(answer.message);
  };

  return (
    <div className="mt-6 grid gap-6 border-t border-slate-200 pt-4 md:grid-cols-2">
      <div>
        <label htmlFor={offerId} className="block font-semibold text-slate-900">
          Offer letter
        </label>
        <textarea
          id={offerId}
          className="mt-1 h-32 w-full rounded-md border border-slate-400 p-2 text-sm"
          value={offer}
          disabled={!loaded}
          onChange={(e) => setOffer(e.target.value)}
        />
        <button type="button" className={`${secondaryButton} mt-2`} disabled={busy || !loaded} onClick={saveOffer}>
          Save Offer Letter
        </button>
      </div>
      <div>
        <label htmlFor={roleId} className="block font-semibold text-slate-900">
          Role
        </label>
        <input
          id={roleId}
          className="mt-1 w-full rounded-md border border-slate-400 p-2 text-sm"
          value={role}
          placeholder="admin, another staff role, or none"
          onChange={(e) => setRole(e.target.value)}
        />
        <button type="button" className={`${secondaryButton} mt-2`} disabled={busy} onClick={saveRole}>
          Change Role
        </button>
      </div>
    </div>
  );
}
