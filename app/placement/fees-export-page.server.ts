import { authorize, refuseJson } from "~/accounts/permissions.server";
import { recordAudit } from "~/core/audit.server";
import { csvResponse } from "~/core/csv.server";
import { todayIn } from "~/core/dates";
import { reportsBusyResponse, takeReportSlot } from "~/core/heavy-reports.server";
import { actorOf } from "~/core/people";
import { getServices } from "~/platform/services.server";
import { consumeAttempt, type Limit } from "~/security/rate-limit.server";
import { feeRecords, feesColumns, receivables } from "./receivables.server";

/** Exports one person may start an hour: each reads every open instalment. */
const feesExportLimit: Limit = { max: 10, windowMs: 60 * 60_000 };

export const feesMessages = {
  tooMany: `You can export the receivables at most ${feesExportLimit.max} times an hour. Please try again later.`,
} as const;

/** GET /staff/fees.csv: staff and admins, through the gate, audited before the first byte. */
export async function exportFeesResponse(request: Request): Promise<Response> {
  const access = await authorize(request, "staff");
  if (!access.ok) return refuseJson(access.status, access.message);
  const { database, config, logger } = await getServices();
  const db = database.db;
  const release = await takeReportSlot();
  if (!release) return reportsBusyResponse();
  try {
    if (!(await consumeAttempt(db, `fees-export:${access.user.id}`, feesExportLimit))) {
      release();
      return refuseJson(429, feesMessages.tooMany);
    }
    const today = todayIn(config.instituteTimeZone);
    const summary = await receivables(db, today);
    await recordAudit(db, actorOf(access.user), {
      action: "export-fees",
      detail: null,
      targetId: null,
      target: `Receivables on ${today}`,
      count: summary.all.open,
    });
    const fileName = `receivables-${today}.csv`;
    return csvResponse(feeRecords(db, today), feesColumns, fileName, { logger, onEnd: release });
  } catch (error) {
    release();
    throw error;
  }
}
