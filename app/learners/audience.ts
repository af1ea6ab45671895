import { stageNames } from "~/placement/stages";
import { allBatches, isFiltered, myBatches, type LearnerFilter } from "./learner-filter";

/** Names the audience words use beside the filter: the batch's, or the trainer's whose batches "mine" are. */
export interface AudienceNames {
  batch?: string;
  trainer?: string;
}

/**
 * The learners a bulk send reaches, in words: 'all 200 learners', or '8 learners in Web
 * Development whose name, email or phone contains "pri"'. The confirmation and the audit log say this.
 */
export function audienceWords(filter: LearnerFilter, count: number, names: AudienceNames = {}): string {
  const { search, course } = filter;
  const q = search.trim();
  const learners = `${count.toLocaleString("en-IN")} ${count === 1 ? "learner" : "learners"}`;
  if (!isFiltered(filter)) return count === 1 ? "the only learner" : `all ${learners}`;
  const first = [learners, course && `in ${course}`, q && `whose name, email or phone contains "${q}"`]
    .filter(Boolean)
    .join(" ");
  return [first, ...filterWords(filter, names)].join(", ");
}

/** The filters beyond course and search, each in words. */
function filterWords(filter: LearnerFilter, names: AudienceNames): string[] {
  const words: string[] = [];
  if (filter.batch === myBatches) {
    // The confirmation speaks to the trainer; the audit log names them.
    words.push(names.trainer ? `in the batches ${names.trainer} trains` : "in your batches");
  } else if (filter.batch && filter.batch !== allBatches) {
    words.push(names.batch ? `in the batch ${names.batch}` : "in the chosen batch");
  }
  if (filter.noResume) words.push("with no resume");
  if (filter.unread) words.push("with unread items");
  if (filter.inactiveDays) {
    words.push(`not active for ${filter.inactiveDays} ${filter.inactiveDays === 1 ? "day" : "days"}`);
  }
  if (filter.stage) words.push(`with an application at ${stageNames[filter.stage]}`);
  const { joinedFrom: from, joinedTo: to } = filter;
  if (from && to) words.push(`who joined from ${from} to ${to}`);
  else if (from) words.push(`who joined on or after ${from}`);
  else if (to) words.push(`who joined on or before ${to}`);
  return words;
}

/** Names a few learners: 'Asha', 'Asha and Ravi', 'Asha, Ravi and 3 more'. */
export function namesInWords(names: string[], shown = 3): string {
  if (names.length <= 1) return names[0] ?? "";
  if (names.length <= shown) return `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
  return `${names.slice(0, shown - 1).join(", ")} and ${names.length - shown + 1} more`;
}
