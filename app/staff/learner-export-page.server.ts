import { z } from "zod";
import { personName } from "~/accounts/person-name";
import { authorize, refuseJson, textFields } from "~/accounts/permissions.server";
import { recordAudit } from "~/core/audit.server";
import { csvResponse } from "~/core/csv.server";
import { reportsBusyResponse, takeReportSlot } from "~/core/heavy-reports.server";
import { actorOf } from "~/core/people";
import { audienceWords, namesInWords } from "~/learners/audience";
import { learnerIds } from "~/learners/learner-filter";
import { audienceNames, clockOf, isLearner } from "~/learners/learner-filter.server";
import { staffMessages } from "~/learners/staff-messages";
import { getServices } from "~/platform/services.server";
import { consumeAttempt, type Limit } from "~/security/rate-limit.server";
import { countExported, exportColumns, learnerRecords, selectedRecords } from "./learner-export.server";
import { addressFilter, searchSchema } from "./staff-types";

/** Exports one person may start: each reads every matching learner (up to 100,000 and more). */
export const exportLimit: Limit = { max: 10, windowMs: 60 * 60_000 };

/**
 * GET /staff/learners.csv?q=…&course=…&batch=… (the workspace's filters): staff and admins, through the gate; a budget of
 * exports per person (in the database); audited before the first byte leaves, with the
 * audience in words and how many learners match.
 */
export async function exportLearnersResponse(request: Request): Promise<Response> {
  const access = await authorize(request, "staff");
  if (!access.ok) return refuseJson(access.status, access.message);
  const parsed = searchSchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) return refuseJson(400, parsed.error.issues[0]?.message ?? "Invalid search.");
  const filter = addressFilter(parsed.data, access.user.id);
  if ("refused" in filter) return refuseJson(400, filter.refused);
  const { database, config, logger } = await getServices();
  const clock = clockOf(config);
  const db = database.db;
  const release = await takeReportSlot();
  if (!release) return reportsBusyResponse();
  try {
    if (!(await consumeAttempt(db, `export:${access.user.id}`, exportLimit))) {
      release();
      return refuseJson(429, exportMessages.tooMany);
    }
    const count = await countExported(db, filter, undefined, clock);
    await recordAudit(db, actorOf(access.user), {
      action: "export",
      detail: null,
      targetId: null,
      target: audienceWords(filter, count, await audienceNames(db, filter)),
      count,
    });
    const day = new Date().toISOString().slice(0, 10);
    const records = learnerRecords(db, filter, { timeZone: config.instituteTimeZone }, clock);
    return csvResponse(records, exportColumns, `learners-${day}.csv`, { logger, onEnd: release });
  } catch (error) {
    release();
    throw error;
  }
}

/**
 * POST /staff/learners.csv with `learnerIds` (the ticked learners, at most 500, too many for an
 * address): the same columns for exactly them, or nothing (409 with the ids in `gone`) if one is
 * no longer a learner. The same gate, budget and audit row as the filtered export.
 */
export async function exportSelectedResponse(request: Request): Promise<Response> {
  const access = await authorize(request, "staff");
  if (!access.ok) return refuseJson(access.status, access.message);
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return refuseJson(400, "Send the form's fields.");
  }
  const parsed = selectedSchema.safeParse(textFields(form));
  if (!parsed.success) return refuseJson(400, parsed.error.issues[0]?.message ?? staffMessages.selectSome);
  const ids = parsed.data.learnerIds;
  const { database, config, logger } = await getServices();
  const db = database.db;
  const found = await db
    .selectFrom("user")
    .select(["id", "username", "name", "email"])
    .where("id", "in", ids)
    .where(isLearner)
    .execute();
  if (found.length !== ids.length) {
    const present = new Set(found.map((row) => row.id));
    const gone = ids.filter((one) => !present.has(one));
    return Response.json(
      { ok: false, message: exportMessages.selectedGone(gone.length), gone },
      { status: 409, headers: { "Cache-Control": "private, no-store" } },
    );
  }
  if (!(await consumeAttempt(db, `export:${access.user.id}`, exportLimit))) {
    return refuseJson(429, exportMessages.tooMany);
  }
  await recordAudit(db, actorOf(access.user), {
    action: "export",
    detail: null,
    targetId: found.length === 1 ? found[0]!.id : null,
    target: namesInWords(found.map(personName).sort(), 5),
    count: found.length,
  });
  const records = await selectedRecords(db, ids, { timeZone: config.instituteTimeZone });
  const day = new Date().toISOString().slice(0, 10);
  return csvResponse(records, exportColumns, `learners-selected-${day}.csv`, { logger });
}

const selectedSchema = z.object({ learnerIds });

export const exportMessages = {
  selectedGone: (count: number) =>
    count === 1
      ? "1 selected learner no longer exists. Nothing was exported; they were taken off the selection."
      : `${count} selected learners no longer exist. Nothing was exported; they were taken off the selection.`,
  tooMany: `You can export at most ${exportLimit.max} times an hour. Please try again later.`,
} as const;
