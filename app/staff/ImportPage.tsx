import { useId } from "react";
import { Form, Link, useNavigation } from "react-router";
import { ErrorLine, labelClass } from "~/ui/form";
import { primaryButton, secondaryButton } from "~/ui/styles";
import {
  importColumns,
  importLimits,
  importModes,
  planFilters,
  type ImportTotals,
  type PlannedRow,
  type RowAction,
} from "./import-types";
import type { loadImportPage } from "./import-page.server";
import { StaffSubpageHeading } from "~/ui/StaffSubpageHeading";

type ImportData = Awaited<ReturnType<typeof loadImportPage>>;
type Run = NonNullable<ImportData["run"]>;

const actionWords: Record<RowAction, string> = {
  create: "New learner",
  update: "Update",
  skip: "Skip",
  error: "Problem",
};

const actionStyle: Record<RowAction, string> = {
  create: "bg-green-100 text-green-900",
  update: "bg-blue-100 text-blue-900",
  skip: "bg-slate-200 text-slate-900",
  error: "bg-red-100 text-red-900",
};

/**
 * The learner import (admins): upload a CSV, read the dry run (what every row would do, every
 * problem of every row with its line), then Import. The dry run lives on the server under an
 * id in the URL, so a reload shows it again and Import applies exactly what was shown.
 */
export function ImportPage({ data, problem }: { data: ImportData; problem?: string }) {
  const { run } = data;
  return (
    <>
      <StaffSubpageHeading title="Import learners" />
      {run?.status === "done" ? (
        <ImportResultView run={run} />
      ) : run ? (
        <DryRunView run={run} problem={problem} />
      ) : (
        <UploadForm problem={problem} gone={data.gone} />
      )}
    </>
  );
}

function UploadForm({ problem, gone }: { problem?: string; gone: boolean }) {
  const ids = useId();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  return (
    <div className="mt-6 max-w-2xl space-y-6">
      <div className="space-y-2 text-slate-800">
        <p>
          Upload a CSV file with one learner per row and these columns, named in its first row:{" "}
          <strong>{importColumns.join(", ")}</strong>. The rules are those of sign-up: a 10-digit phone number without
          +91, a course from the sign-up list, gender male or female.
        </p>
        <p>
          At most {importLimits.maxRows.toLocaleString("en-IN")} rows and {importLimits.maxFileBytes / 1024 / 1024} MB,
          saved as CSV UTF-8. Nothing is imported until you have seen what each row would do. New learners get an email
          inviting them to choose their password.
        </p>
        <p>
          <a href="/staff/import/template.csv" download className="font-semibold text-blue-800 underline">
            Download the template (CSV)
          </a>
        </p>
      </div>
      {gone && (
        <p className="rounded-md border border-amber-300 bg-amber-50 p-3 text-amber-950" role="status">
          That dry run has expired or was already imported. Upload the file again.
        </p>
      )}
      <Form
        method="post"
        encType="multipart/form-data"
        className="space-y-5 rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
      >
        <input type="hidden" name="intent" value="dry-run" />
        <div>
          <label htmlFor={`${ids}-file`} className={labelClass}>
            CSV file
          </label>
          <input
            id={`${ids}-file`}
            name="file"
            type="file"
            accept=".csv,text/csv"
            required
            aria-describedby={problem ? `${ids}-problem` : undefined}
            className="mt-1 block w-full min-w-0 text-sm text-slate-900 file:mr-3 file:rounded-md file:border file:border-blue-800 file:bg-white file:px-3 file:py-2 file:font-semibold file:text-blue-800"
          />
        </div>
        <fieldset>
          <legend className={labelClass}>Emails already registered</legend>
          <div className="mt-2 space-y-2">
            {importModes.map((mode, index) => (
              <label key={mode.value} className="flex items-start gap-2 text-slate-900">
                <input
                  type="radio"
                  name="mode"
                  value={mode.value}
                  defaultChecked={index === 0}
                  className="mt-1 h-4 w-4"
                />
                <span>
                  <span className="font-semibold">{mode.label}</span>
                  <span className="block text-sm text-slate-700">{mode.hint}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        <ErrorLine id={`${ids}-problem`} message={problem} />
        <button type="submit" className={primaryButton} disabled={busy}>
          {busy ? "Checking the file…" : "Check the file"}
        </button>
      </Form>
    </div>
  );
}

function Totals({ totals, done }: { totals: ImportTotals; done: boolean }) {
  const items: [string, number][] = done
    ? [
        ["Created", totals.create],
        ["Updated", totals.update],
        ["Skipped", totals.skip],
        ["Failed", totals.error],
      ]
    : [
        ["New learners", totals.create],
        ["Updates", totals.update],
        ["Skipped", totals.skip],
        ["With problems", totals.error],
      ];
  return (
    <dl className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-4" data-testid="import-totals">
      {items.map(([label, value]) => (
        <div key={label} className="rounded-lg border border-slate-200 bg-white p-3">
          <dt className="text-sm text-slate-700">{label}</dt>
          <dd className="text-2xl font-bold text-slate-900">{value.toLocaleString("en-IN")}</dd>
        </div>
      ))}
    </dl>
  );
}

function RowValues({ values }: { values: PlannedRow["values"] }) {
  const shown = importColumns.map((column) => values[column]).filter(Boolean);
  return (
    <span className="[overflow-wrap:anywhere] text-slate-800">{shown.length ? shown.join(" · ") : "(empty)"}</span>
  );
}

function DryRunView({ run, problem }: { run: Exclude<Run, { status: "done" }>; problem?: string }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const importable = run.totals.create + run.totals.update;
  const mode = importModes.find((m) => m.value === run.mode)!;
  const pageLink = (change: { show?: string; page?: number }) => {
    const params = new URLSearchParams({ run: run.id });
    const show = change.show ?? run.show;
    if (show !== "all") params.set("show", show);
    const page = change.page ?? 1;
    if (page > 1) params.set("page", String(page));
    return `/staff/import?${params}`;
  };
  return (
    <div className="mt-6 space-y-6">
      <section aria-labelledby="dry-run-title">
        <h2 id="dry-run-title" className="text-xl font-bold text-slate-900">
          Dry run of {run.fileName}
        </h2>
        <p className="mt-1 text-slate-800">
          Nothing has been imported yet. Mode: <strong>{mode.label}</strong> ({mode.hint.toLowerCase()})
        </p>
        <Totals totals={run.totals} done={false} />
        {run.extraColumns.length > 0 && (
          <p className="mt-3 text-slate-800">
            Extra columns, not imported:{" "}
            <strong className="[overflow-wrap:anywhere]">{run.extraColumns.join(", ")}</strong>.
          </p>
        )}
        <Form method="post" className="mt-4 flex flex-wrap items-center gap-3">
          <input type="hidden" name="intent" value="import" />
          <input type="hidden" name="run" value={run.id} />
          <button
            type="submit"
            className={primaryButton}
            disabled={busy || importable === 0 || run.status === "importing"}
          >
            {busy
              ? "Importing…"
              : `Import ${importable.toLocaleString("en-IN")} ${importable === 1 ? "learner" : "learners"}`}
          </button>
          <Link to="/staff/import" className={secondaryButton}>
            Upload another file
          </Link>
        </Form>
        <ErrorLine message={problem} className="mt-2" />
        {run.totals.error > 0 && <p className="text-slate-800">Rows with problems are not imported.</p>}
      </section>

      {run.problems.length > 0 && <ProblemRows problems={run.problems} />}

      <section aria-labelledby="rows-title">
        <h2 id="rows-title" className="text-xl font-bold text-slate-900">
          Every row
        </h2>
        <nav aria-label="Which rows" className="mt-2 flex flex-wrap gap-2">
          {planFilters.map((filter) => (
            <Link
              key={filter.value}
              to={pageLink({ show: filter.value })}
              aria-current={run.show === filter.value ? "page" : undefined}
              className={`rounded-md px-3 py-1.5 text-sm font-semibold ${run.show === filter.value ? "bg-blue-800 text-white" : "border border-slate-300 bg-white text-slate-900"}`}
            >
              {filter.label}
            </Link>
          ))}
        </nav>
        {run.rows.length === 0 ? (
          <p className="mt-3 text-slate-700">No rows of this kind.</p>
        ) : (
          <ol
            className="mt-3 divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white"
            data-testid="import-rows"
          >
            {run.rows.map((row) => (
              <li key={row.line} className="flex flex-wrap items-start gap-x-3 gap-y-1 p-3 text-sm">
                <span className="w-16 shrink-0 font-semibold text-slate-900">Line {row.line}</span>
                <span className={`shrink-0 rounded px-2 py-0.5 font-semibold ${actionStyle[row.action]}`}>
                  {actionWords[row.action]}
                </span>
                <span className="min-w-0 flex-1 basis-60">
                  <RowValues values={row.values} />
                  {row.notes.length > 0 && <span className="block text-slate-700">{row.notes.join(" ")}</span>}
                </span>
              </li>
            ))}
          </ol>
        )}
        {run.pages > 1 && (
          <nav aria-label="Pages of rows" className="mt-4 flex items-center justify-between gap-4">
            {run.page > 1 ? (
              <Link to={pageLink({ page: run.page - 1 })} className={secondaryButton}>
                Previous
              </Link>
            ) : (
              <span />
            )}
            <span className="text-sm text-slate-700">
              Page {run.page} of {run.pages}
            </span>
            {run.page < run.pages ? (
              <Link to={pageLink({ page: run.page + 1 })} className={secondaryButton}>
                Next
              </Link>
            ) : (
              <span />
            )}
          </nav>
        )}
      </section>
    </div>
  );
}

/** The rows that are not imported, each with every problem it has. */
function ProblemRows({ problems }: { problems: Exclude<Run, { status: "done" }>["problems"] }) {
  return (
    <section aria-labelledby="problems-title">
      <h2 id="problems-title" className="text-xl font-bold text-slate-900">
        Problems ({problems.length.toLocaleString("en-IN")} {problems.length === 1 ? "row" : "rows"})
      </h2>
      <ul className="mt-3 space-y-2" data-testid="import-problems">
        {problems.map((row) => (
          <li key={row.line} className="rounded-lg border border-red-200 bg-red-50 p-3">
            <p className="font-semibold text-red-900">Line {row.line}</p>
            <ul className="list-disc pl-5 text-red-900">
              {row.notes.map((note) => (
                <li key={note}>{note}</li>
              ))}
            </ul>
            <p className="mt-1 text-sm">
              <RowValues values={row.values} />
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}

function ImportResultView({ run }: { run: Extract<Run, { status: "done" }> }) {
  return (
    <section aria-labelledby="result-title" className="mt-6 max-w-3xl">
      <h2 id="result-title" className="text-xl font-bold text-slate-900">
        Imported {run.fileName}
      </h2>
      <Totals totals={run.totals} done />
      {run.invited > 0 && (
        <p className="mt-4 text-slate-800">
          {run.invited.toLocaleString("en-IN")} {run.invited === 1 ? "new learner is" : "new learners are"} being sent
          an email inviting them to choose their password.
        </p>
      )}
      <div className="mt-4 flex flex-wrap gap-3">
        {run.failedCount > 0 && (
          <a href={`/staff/import/${encodeURIComponent(run.id)}/failed.csv`} download className={primaryButton}>
            Download the {run.failedCount.toLocaleString("en-IN")} failed {run.failedCount === 1 ? "row" : "rows"} (CSV)
          </a>
        )}
        <Link to="/staff" className={secondaryButton}>
          Back to the learners
        </Link>
        <Link to="/staff/import" className={secondaryButton}>
          Import another file
        </Link>
      </div>
    </section>
  );
}
