import { advertisedCourses } from "~/catalogue/catalogue.server";
import { getServices } from "~/platform/services.server";
import { notSureYet } from "./enquiry-fields";

/**
 * The courses an enquiry may be about: the advertised catalogue's titles (shown courses, in
 * order, as staff keep them), then "Not sure yet". The form and its check both read this.
 */
export async function enquiryCourses(): Promise<string[]> {
  const { database, config } = await getServices();
  const courses = await advertisedCourses(database.db, config.paymentUrl);
  return [...courses.map((course) => course.title), notSureYet];
}
