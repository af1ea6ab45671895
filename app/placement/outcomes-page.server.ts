import { requireRole } from "~/accounts/permissions.server";
import { inReportSlot } from "~/core/heavy-reports.server";
import { getServices } from "~/platform/services.server";
import { receivables } from "./receivables.server";
import { formatDocumentDate } from "~/documents/words";
import { outcomeReport } from "./reports.server";
import { headlineOf, publicOutcomesFrom } from "./public-outcomes.server";
import { keptPublicAggregates } from "./kept-public-aggregates.server";
import { todayIn } from "~/core/dates";

/** /staff/outcomes: staff and admins. */
export async function loadStaffOutcomes(request: Request) {
  const user = await requireRole(request, "staff");
  const { database, config } = await getServices();
  const report = await inReportSlot(() => outcomeReport(database.db, todayIn(config.instituteTimeZone)));
  return { user: { level: user.level }, report };
}

/** /staff/fees: staff and admins. */
export async function loadStaffFees(request: Request) {
  const user = await requireRole(request, "staff");
  const { database, config } = await getServices();
  return {
    user: { level: user.level },
    receivables: await inReportSlot(() => receivables(database.db, todayIn(config.instituteTimeZone))),
  };
}

/** /outcomes: everyone; the anonymous-page cache serves it until placement records change. */
export async function loadPublicOutcomes() {
  const { database, config } = await getServices();
  const aggregates = await keptPublicAggregates(database.db, todayIn(config.instituteTimeZone));
  return publicOutcomesFrom(database.db, aggregates);
}

/**
 * The landing page's placement figure, worded on the server (the lean page ships no formatting
 * code); null until records back one. The landing's cache drops it with /outcomes.
 */
export async function landingPlacement(): Promise<{ figure: string; detail: string } | null> {
  const { database, config } = await getServices();
  const headline = headlineOf(await keptPublicAggregates(database.db, todayIn(config.instituteTimeZone)));
  if (!headline) return null;
  return {
    figure: `${headline.percent}%`,
    detail: `of job-seeking graduates placed within 180 days (${headline.placed} of ${headline.seeking}), in batches that ended by ${formatDocumentDate(headline.endedBy)}`,
  };
}

export type LandingPlacement = Awaited<ReturnType<typeof landingPlacement>>;
