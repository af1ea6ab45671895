import { useState } from "react";
import { useToast } from "~/ui/toast";
import { maxSelected, staffMessages } from "~/learners/staff-messages";
import type { LearnerSummary } from "./staff-types";

/** Learners ticked with the checkboxes, by id, with their names: kept across pages and searches. */
export function useTickedLearners() {
  const toast = useToast();
  const [ticked, setTicked] = useState<ReadonlyMap<string, string>>(new Map());
  return {
    ticked,
    tick(learners: LearnerSummary[], on: boolean) {
      const next = new Map(ticked);
      for (const learner of learners) {
        if (on) next.set(learner.id, learner.username);
        else next.delete(learner.id);
      }
      if (next.size > maxSelected) return toast.error(staffMessages.tooManySelected);
      setTicked(next);
    },
    /** Takes learners who no longer exist off the selection. */
    drop(gone: string[]) {
      const next = new Map(ticked);
      for (const id of gone) next.delete(id);
      setTicked(next);
    },
    clear() {
      setTicked(new Map());
    },
  };
}

export type TickedLearners = ReturnType<typeof useTickedLearners>;
