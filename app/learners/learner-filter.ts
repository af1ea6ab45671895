import { plain } from "~/core/fields";
import { textLimits } from "~/core/text";
import { maxSelected, staffMessages } from "./staff-messages";

// The staff search and course filter over learners, and a chosen set of learners: the fields a
// staff form sends, shared by the workspace and the document issues.

export interface LearnerFilter {
  /** Typed into the search box: matched, case-insensitively, anywhere in the name, email or phone. */
  search: string;
  /** One course, or "" for All Courses. */
  course: string;
}

/** The search box and the course filter, as a form or the URL sends them. */
export const filter = {
  search: plain(textLimits.search, "The search is too long.").default(""),
  course: plain(200, "Unknown course.").default(""),
};

/** Learner ids, comma-separated (a form field holds one string). */
export const learnerIds = plain(maxSelected * 201, staffMessages.tooManySelected)
  .default("")
  .transform((value, ctx) => {
    const ids = [...new Set(value.split(",").filter(Boolean))];
    if (ids.length === 0) ctx.addIssue({ code: "custom", message: staffMessages.selectSome });
    else if (ids.length > maxSelected) ctx.addIssue({ code: "custom", message: staffMessages.tooManySelected });
    else if (ids.some((one) => one.length > 200)) ctx.addIssue({ code: "custom", message: "Unknown id." });
    return ids;
  });
