import { calendarDate } from "~/learners/day-number";
import { getServices } from "~/platform/services.server";

/** Today's date ('YYYY-MM-DD') in the institute's time zone: what due dates are compared with. */
export async function instituteToday(): Promise<string> {
  const { config } = await getServices();
  return calendarDate(new Date(), config.instituteTimeZone);
}
