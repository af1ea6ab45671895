import type { Config } from "~/config/config.server";
import { todayIn } from "~/core/dates";

/** Today's date ('YYYY-MM-DD') in the institute's time zone: what due dates are compared with. */
export function instituteToday(config: Pick<Config, "instituteTimeZone">): string {
  return todayIn(config.instituteTimeZone);
}
