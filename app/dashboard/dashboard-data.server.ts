import type { SessionUser } from "~/accounts/session.server";
import { learnerState } from "~/learners/learner-api.server";
import type { LearnerState } from "~/learners/learner-state";
import { getServices } from "~/platform/services.server";

/** The learner dashboard's first render, for the loaders of / and /dashboard. */
export async function loadLearnerState(user: SessionUser): Promise<LearnerState> {
  const { config, database } = await getServices();
  return learnerState({ db: database.db, config }, user);
}
