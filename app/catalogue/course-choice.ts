/** A catalogue course as a picker offers it. */
export interface CourseChoice {
  slug: string;
  title: string;
}
