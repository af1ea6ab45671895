import { authorize, refuseJson } from "~/accounts/permissions.server";
import { recordAudit } from "~/core/audit.server";
import { csvResponse } from "~/core/csv.server";
import { actorOf } from "~/core/people";
import { getServices } from "~/platform/services.server";
import { consumeAttempt } from "~/security/rate-limit.server";
import { feeRecords, feesColumns, feesExportLimit, feesMessages, receivables } from "./receivables.server";
import { todayIn } from "~/core/dates";

/** GET /staff/fees.csv: staff and admins, through the gate, audited before the first byte. */
export async function exportFeesResponse(request: Request): Promise<Response> {
  const access = await authorize(request, "staff");
  if (!access.ok) return refuseJson(access.status, access.message);
  const { database, config, logger } = await getServices();
  const db = database.db;
  if (!(await consumeAttempt(db, `fees-export:${access.user.id}`, feesExportLimit))) {
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
  return csvResponse(feeRecords(db, today), feesColumns, `receivables-${today}.csv`, logger);
}
