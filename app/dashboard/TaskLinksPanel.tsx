import { useState } from "react";
import type { LearnerState } from "~/learners/learner-state";
import { checkTaskLink, maxTaskLinkLength } from "~/learners/task-link-rules";
import { card, primaryButton } from "~/ui/styles";
import { ConfirmDialog } from "~/ui/ConfirmDialog";
import { ErrorLine, Field } from "~/ui/form";
import { useAction } from "~/ui/use-action";
import { draftKey, useDraftState } from "~/ui/use-draft";
import { LostChange } from "~/ui/LostChange";
import { formatDateTime } from "~/core/dates";

/** Submitting task links (checked here and again on the server) and removing them after a Yes. */
export function TaskLinksPanel({
  taskLinks,
  timeZone,
  username,
}: {
  taskLinks: LearnerState["taskLinks"];
  timeZone: string;
  /** Whose draft link this browser keeps until it is sent. */
  username: string;
}) {
  const [value, setValue] = useDraftState(draftKey(username, "task-link"));
  const [error, setError] = useState("");
  const [deleting, setDeleting] = useState<string | null>(null);
  const [deleteError, setDeleteError] = useState("");
  const add = useAction();
  const removal = useAction();

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const check = checkTaskLink(value);
    if (!check.ok) return setError(check.message);
    setError("");
    add.submit(
      { intent: "add-task-link", link: check.link },
      {
        inline: true,
        onDone: (answer) => {
          if (!answer.ok) return setError(answer.message);
          setValue("");
        },
      },
    );
  };

  const remove = () => {
    if (!deleting) return;
    removal.submit(
      { intent: "delete-task-link", id: deleting },
      {
        inline: true,
        onDone: (answer) => (answer.ok ? setDeleting(null) : setDeleteError(answer.message)),
      },
    );
  };

  return (
    <section aria-labelledby="links-heading" className={card}>
      <h2 id="links-heading" className="text-xl font-bold text-slate-900">
        Task links
      </h2>
      <form onSubmit={submit} noValidate className="mt-3">
        <Field
          id="task-link"
          label="Task link"
          inputMode="url"
          autoComplete="url"
          maxLength={maxTaskLinkLength + 100}
          placeholder="https://github.com/you/your-task"
          value={value}
          onChange={(event) => setValue(event.target.value)}
          aria-describedby="task-link-error"
          beside={
            <button type="submit" className={primaryButton} disabled={add.busy}>
              Submit
            </button>
          }
        />
        <ErrorLine id="task-link-error" message={error} className="mt-2" />
        <LostChange action={add} className="mt-2" />
      </form>
      {taskLinks.length === 0 ? (
        <p className="text-slate-700">No task links submitted yet.</p>
      ) : (
        <ul className="divide-y divide-slate-200" aria-label="Submitted task links">
          {taskLinks.map((item) => (
            <li key={item.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
              <div className="min-w-0">
                <a
                  href={item.link}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="font-medium break-all text-blue-800 underline"
                >
                  {item.link}
                </a>
                <p className="text-sm text-slate-600">
                  <time dateTime={item.createdAt}>{formatDateTime(item.createdAt, timeZone)}</time>
                </p>
              </div>
              <button
                type="button"
                className="font-semibold text-red-700 underline"
                onClick={() => {
                  setDeleteError("");
                  setDeleting(item.id);
                }}
                aria-label={`Delete link ${item.link}`}
              >
                Delete
              </button>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete link"
        description={`Delete the link ${taskLinks.find((l) => l.id === deleting)?.link ?? ""}?`}
        danger
        onYes={remove}
        busy={removal.busy}
        error={deleteError}
        action={removal}
      />
    </section>
  );
}
