import { advertisedCourses } from "~/catalogue/catalogue.server";
import type { Db } from "~/db/database.server";
import { notSureYet } from "./enquiry-fields";

/** The enquiry form's choices for these advertised courses: their titles, then "Not sure yet". */
export function enquiryChoices(courses: readonly { title: string }[]): string[] {
  return [...courses.map((course) => course.title), notSureYet];
}

/**
 * The courses an enquiry may be about: the advertised catalogue's titles (shown courses, in
 * order, as staff keep them), then "Not sure yet". The form and its check both read this.
 */
export async function enquiryCourses(db: Db, paymentUrl: string): Promise<string[]> {
  return enquiryChoices(await advertisedCourses(db, paymentUrl));
}
