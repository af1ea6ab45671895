import { courses } from "~/content/site-content";
import { notSureYet } from "./enquiry-fields";

/**
 * The courses an enquiry may be about: the advertised catalogue's titles, then "Not sure yet".
 * The one place the form and its check read them, so a catalogue kept elsewhere changes only this.
 */
export async function enquiryCourses(): Promise<string[]> {
  return [...courses.map((course) => course.title), notSureYet];
}
