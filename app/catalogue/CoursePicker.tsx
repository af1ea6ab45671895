import { controlClass, labelClass } from "~/ui/form";
import type { CourseChoice } from "./course-choice";

/**
 * Picks a course from the catalogue (never typed): a select whose value is the course's slug.
 * Shared by every form that names a course of the catalogue (a batch's course, and others).
 */
export function CoursePicker({
  id,
  courses,
  name = "courseSlug",
  label = "Course",
  defaultValue = "",
  required = true,
}: {
  id: string;
  courses: readonly CourseChoice[];
  name?: string;
  label?: string;
  defaultValue?: string;
  required?: boolean;
}) {
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      <select id={id} name={name} className={controlClass} defaultValue={defaultValue} required={required}>
        <option value="">Choose a course</option>
        {courses.map((course) => (
          <option key={course.slug} value={course.slug}>
            {course.title}
          </option>
        ))}
      </select>
    </div>
  );
}
