import { requireRole } from "~/accounts/permissions.server";
import { getServices } from "~/platform/services.server";
import { receivables } from "./receivables.server";
import { outcomeReport, publicOutcomes, todayIn } from "./reports.server";

/** /staff/outcomes: staff and admins. */
export async function loadStaffOutcomes(request: Request) {
  const user = await requireRole(request, "staff");
  const { database, config } = await getServices();
  return { user: { level: user.level }, report: await outcomeReport(database.db, todayIn(config.instituteTimeZone)) };
}

/** /staff/fees: staff and admins. */
export async function loadStaffFees(request: Request) {
  const user = await requireRole(request, "staff");
  const { database, config } = await getServices();
  return {
    user: { level: user.level },
    receivables: await receivables(database.db, todayIn(config.instituteTimeZone)),
  };
}

/** /outcomes: everyone; the anonymous-page cache serves it until placement records change. */
export async function loadPublicOutcomes() {
  const { database, config } = await getServices();
  return publicOutcomes(database.db, todayIn(config.instituteTimeZone));
}
