import { authorize, refuseJson } from "~/accounts/permissions.server";
import { recordAudit } from "~/core/audit.server";
import { csvResponse } from "~/core/csv.server";
import { reportsBusyResponse, takeReportSlot } from "~/core/heavy-reports.server";
import { actorOf } from "~/core/people";
import { audienceWords } from "~/learners/audience";
import { audienceNames, clockOf } from "~/learners/learner-filter.server";
import { getServices } from "~/platform/services.server";
import { consumeAttempt, type Limit } from "~/security/rate-limit.server";
import { countExported, exportColumns, learnerRecords } from "./learner-export.server";
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
  const filter = addressFilter(parsed.data);
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

export const exportMessages = {
  tooMany: `You can export at most ${exportLimit.max} times an hour. Please try again later.`,
} as const;
