import type { Config } from "~/config/config.server";
import { calendarDate } from "~/learners/day-number";

/** Today's date ('YYYY-MM-DD') in the institute's time zone: what due dates are compared with. */
export function instituteToday(config: Pick<Config, "instituteTimeZone">): string {
  return calendarDate(new Date(), config.instituteTimeZone);
}
