import type { LearnerFilter } from "./learner-filter";

/**
 * The learners a bulk send reaches, in words: 'all 200 learners', or '8 learners in Web
 * Development whose name, email or phone contains "pri"'. The confirmation and the audit log say this.
 */
export function audienceWords({ search, course }: LearnerFilter, count: number): string {
  const q = search.trim();
  const learners = `${count.toLocaleString("en-IN")} ${count === 1 ? "learner" : "learners"}`;
  if (!q && !course) return count === 1 ? "the only learner" : `all ${learners}`;
  return [learners, course && `in ${course}`, q && `whose name, email or phone contains "${q}"`]
    .filter(Boolean)
    .join(" ");
}

/** Names a few learners: 'Asha', 'Asha and Ravi', 'Asha, Ravi and 3 more'. */
export function namesInWords(names: string[], shown = 3): string {
  if (names.length <= 1) return names[0] ?? "";
  if (names.length <= shown) return `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
  return `${names.slice(0, shown - 1).join(", ")} and ${names.length - shown + 1} more`;
}
