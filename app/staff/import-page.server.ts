import {
  FormDataParseError,
  MaxFileSizeExceededError,
  MaxFilesExceededError,
  parseFormData,
  type FileUpload,
} from "@remix-run/form-data-parser";
import { redirect } from "react-router";
import { authorizeChange, refuse, refuseJson, requireRole, authorize } from "~/accounts/permissions.server";
import { getServices } from "~/platform/services.server";
import { consumeAttempt, type Limit } from "~/security/rate-limit.server";
import { idFromAddress } from "~/core/text";
import { actorOf } from "~/core/people";
import { csvResponse } from "~/core/csv.server";
import {
  importColumns,
  importLimits,
  importMessages,
  importModes,
  planFilters,
  planPageSize,
  type ImportMode,
  type PlanFilter,
} from "./import-types";
import { countActions, planImport } from "./import-plan.server";
import { parseLearnerFile } from "./learner-file.server";
import { applyImport, failedRowRecords, failedRowsColumns, findImport, saveDryRun } from "./learner-import.server";

/** Dry runs one admin may make (each reads a file of up to 10,000 rows). */
const dryRunLimit: Limit = { max: 30, windowMs: 60 * 60_000 };

/**
 * The most an import request may carry: the file, a few small fields and the multipart framing.
 * The HTTP layer leaves this route's body unread (app/http/request-limits.server.ts); the action
 * refuses a larger declared length before reading a byte, and stops reading at the file limit.
 */
export const importRequestMaxBytes = importLimits.maxFileBytes + 64 * 1024;

const importPath = "/staff/import";

/** /staff/import (admins): the upload form, or this admin's dry run (`?run=`), or its result. */
export async function loadImportPage(request: Request) {
  const user = await requireRole(request, "admin");
  const url = new URL(request.url);
  const viewer = { id: user.id, level: user.level };
  const asked = url.searchParams.get("run") ?? "";
  if (!asked) return { user: viewer, run: null, gone: false };
  const { database } = await getServices();
  const runId = idFromAddress(asked);
  const stored = runId ? await findImport(database.db, user.id, runId) : null;
  if (!stored) return { user: viewer, run: null, gone: true };
  const base = { id: stored.id, fileName: stored.fileName, mode: stored.mode, extraColumns: stored.extraColumns };
  if (stored.status === "done" && stored.result) {
    const { totals, failed, invited } = stored.result;
    return {
      user: viewer,
      gone: false,
      run: { ...base, status: "done" as const, totals, failedCount: failed.length, invited },
    };
  }
  const planned = await planImport(database.db, stored.rows, stored.mode);
  const show = (planFilters.find((f) => f.value === url.searchParams.get("show"))?.value ?? "all") as PlanFilter;
  const shown = show === "all" ? planned : planned.filter((row) => row.action === show);
  const pages = Math.max(1, Math.ceil(shown.length / planPageSize));
  const page = Math.min(pages, Math.max(1, Number.parseInt(url.searchParams.get("page") ?? "1", 10) || 1));
  return {
    user: viewer,
    gone: false,
    run: {
      ...base,
      status: stored.status === "importing" ? ("importing" as const) : ("pending" as const),
      totals: countActions(planned),
      /** Every row with a problem, each with all of its problems (never paged). */
      problems: planned.filter((row) => row.action === "error"),
      show,
      page,
      pages,
      rows: shown.slice((page - 1) * planPageSize, page * planPageSize),
    },
  };
}

const modeValues = importModes.map((m) => m.value) as readonly string[];

/**
 * The import page's action (admins): the upload (multipart: the file and the mode) makes a dry
 * run and shows it; `intent=import` with the dry run's id applies it. The gate is passed before
 * a byte of the body is read.
 */
export async function importAction(request: Request) {
  const access = await authorizeChange(request, "admin");
  if (!access.ok) return refuse(access.status, access.message);
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > importRequestMaxBytes) return refuse(413, importMessages.tooLarge);
  const type = request.headers.get("content-type") ?? "";
  if (!type.startsWith("multipart/form-data") && !type.startsWith("application/x-www-form-urlencoded")) {
    return refuse(415, importMessages.notAForm);
  }
  let form: FormData;
  try {
    form = await parseFormData(
      request,
      { maxFiles: 1, maxParts: 10, maxFileSize: importLimits.maxFileBytes, maxTotalSize: importRequestMaxBytes },
      (upload: FileUpload) => (upload.fieldName === "file" ? upload : null),
    );
  } catch (error) {
    await request.body?.cancel().catch(() => {});
    if (error instanceof MaxFileSizeExceededError || (error as Error).name === "MaxTotalSizeExceededError") {
      return refuse(413, importMessages.tooLarge);
    }
    if (error instanceof MaxFilesExceededError || (error as Error).name === "MaxPartsExceededError") {
      return refuse(400, importMessages.oneFile);
    }
    if (error instanceof FormDataParseError) return refuse(400, importMessages.unreadable);
    throw error;
  }
  const { database, bus, auth } = await getServices();
  const db = database.db;
  const actor = actorOf(access.user);
  const intent = form.get("intent");

  if (intent === "import") {
    const run = form.get("run");
    if (typeof run !== "string") return refuse(400, importMessages.gone);
    const outcome = await applyImport({ db, bus, auth }, actor, run);
    if (!outcome.ok) return refuse(outcome.status, outcome.message);
    throw redirect(`${importPath}?run=${encodeURIComponent(run)}`);
  }

  if (intent !== "dry-run") return refuse(400, "Unknown action.");
  const file = form.get("file");
  if (!(file instanceof File) || file.size === 0) return refuse(400, importMessages.noFile);
  const mode = form.get("mode");
  if (typeof mode !== "string" || !modeValues.includes(mode))
    return refuse(400, "Choose what to do with emails already registered.");
  if (!(await consumeAttempt(db, `import:${actor.id}`, dryRunLimit))) return refuse(429, importMessages.tooMany);
  const parsed = await parseLearnerFile(file);
  if (!parsed.ok) return refuse(parsed.status, parsed.message);
  const id = await saveDryRun(db, actor, {
    fileName: file.name,
    mode: mode as ImportMode,
    rows: parsed.rows,
    extraColumns: parsed.extraColumns,
  });
  throw redirect(`${importPath}?run=${encodeURIComponent(id)}`);
}

/** GET /staff/import/template.csv: the header row an import file needs. */
export async function importTemplateResponse(request: Request): Promise<Response> {
  const access = await authorize(request, "admin");
  if (!access.ok) return refuseJson(access.status, access.message);
  return csvResponse(
    [],
    importColumns.map((column) => ({ key: column, header: column })),
    "learners-template.csv",
  );
}

/** GET /staff/import/:id/failed.csv: the result's failed rows with their reasons (its admin only). */
export async function failedRowsResponse(request: Request, id: string | undefined): Promise<Response> {
  const access = await authorize(request, "admin");
  if (!access.ok) return refuseJson(access.status, access.message);
  const { database } = await getServices();
  const runId = idFromAddress(id);
  const records = runId ? await failedRowRecords(database.db, access.user.id, runId) : null;
  if (!records) return refuseJson(404, importMessages.gone);
  return csvResponse(records, failedRowsColumns, "learners-failed-rows.csv");
}
