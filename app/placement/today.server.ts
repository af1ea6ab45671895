import { getServices } from "~/platform/services.server";
import { todayIn } from "~/core/dates";

/** Today's date ('YYYY-MM-DD') in the institute's time zone: what due dates are compared with. */
export async function instituteToday(): Promise<string> {
  const { config } = await getServices();
  return todayIn(config.instituteTimeZone);
}
