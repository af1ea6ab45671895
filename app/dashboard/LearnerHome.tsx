import { statusLabels } from "~/assignments/statuses";
import { formatDateTime } from "~/core/dates";
import { formatDocumentDate } from "~/documents/words";
import type { LearnerHome as Home } from "./learner-home.server";

const kindLabels = { notice: "Notice", task: "Task", feedback: "Feedback" } as const;

const card = "rounded-lg border border-slate-300 bg-white p-4";
const heading = "text-lg font-bold text-slate-900";

/**
 * The top of the learner's home: what is due next, what waits for their answer, what is new
 * from their trainers, and how far each batch has come. The popups hold the full items.
 */
export function LearnerHome({
  home,
  timeZone,
  onShow,
}: {
  home: Home;
  timeZone: string;
  onShow: (show: string) => void;
}) {
  return (
    <div className="mt-6 grid gap-4 md:grid-cols-3">
      <section aria-labelledby="due-next" className={card} data-testid="due-next">
        <h2 id="due-next" className={heading}>
          Due next
        </h2>
        {home.dueNext.length === 0 ? (
          <p className="mt-2 text-slate-700">Nothing is due.</p>
        ) : (
          <ul className="mt-2 space-y-2">
            {home.dueNext.map((item) => (
              <li key={item.id}>
                <button
                  type="button"
                  className="text-left font-semibold text-blue-800 underline"
                  onClick={() => onShow("tasks")}
                >
                  {item.title}
                </button>
                <p className="text-sm text-slate-700">
                  {`Due ${formatDateTime(item.dueAt, timeZone)} · ${statusLabels[item.status]}`}
                </p>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="needs-reply" className={card} data-testid="needs-reply">
        <h2 id="needs-reply" className={heading}>
          Needs your reply
        </h2>
        {home.needsReply.length === 0 ? (
          <p className="mt-2 text-slate-700">Nothing waits for your answer.</p>
        ) : (
          <ul className="mt-2 space-y-2">
            {home.needsReply.map((offer) => (
              <li key={offer.id}>
                <button
                  type="button"
                  className="text-left font-semibold text-blue-800 underline"
                  onClick={() => onShow("offer-letter")}
                >
                  {`Reply to the offer: ${offer.title}`}
                </button>
                <p className="text-sm text-slate-700">
                  {offer.replyBy ? `Reply by ${formatDocumentDate(offer.replyBy)}` : "Reply when you are ready"}
                </p>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="from-trainer" className={card} data-testid="from-trainer">
        <h2 id="from-trainer" className={heading}>
          New from your trainer
        </h2>
        {home.fromTrainer.length === 0 ? (
          <p className="mt-2 text-slate-700">Nothing new.</p>
        ) : (
          <ul className="mt-2 space-y-2">
            {home.fromTrainer.map((item) => (
              <li key={item.id}>
                <button
                  type="button"
                  className="text-left text-blue-800 underline"
                  onClick={() => onShow(item.kind === "notice" ? "notices" : "tasks")}
                >
                  <span className="font-semibold">{`${kindLabels[item.kind]}: `}</span>
                  <span className="break-words">{item.text}</span>
                </button>
                <p className="text-sm text-slate-700">
                  {`${item.from ? `${item.from}, ` : ""}${formatDateTime(item.at, timeZone)}`}
                </p>
              </li>
            ))}
          </ul>
        )}
      </section>

      {home.batches.length > 0 && (
        <section aria-labelledby="my-batches" className={`${card} md:col-span-3`} data-testid="batch-progress">
          <h2 id="my-batches" className={heading}>
            My batches
          </h2>
          <ul className="mt-2 space-y-3">
            {home.batches.map((batch) => (
              <li key={batch.id}>
                <p className="font-semibold text-slate-900">{batch.name}</p>
                <p className="text-sm text-slate-700" data-testid="batch-progress-words">
                  {`${batch.accepted} of ${batch.total} assignments accepted`}
                </p>
                <progress
                  className="mt-1 h-2 w-full"
                  max={Math.max(batch.total, 1)}
                  value={batch.accepted}
                  aria-label={`${batch.name}: ${batch.accepted} of ${batch.total} assignments accepted`}
                />
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
