import type { Logger } from "~/logging/logger.server";
import { staffTopic } from "~/realtime/events";

/**
 * Tells every open staff view that a learner signed up, so the card appears without a reload.
 * Called after the sign-up has committed. The bus is the learner services' one; imported when
 * first needed because those services import the auth module that calls this.
 */
export async function announceSignUp(learnerId: string, logger: Logger): Promise<void> {
  try {
    const { getLearnerServices } = await import("~/learners/learner-services.server");
    const { bus } = await getLearnerServices();
    await bus.publish(staffTopic, { type: "learner-signed-up", learnerId });
  } catch (error) {
    // The account exists either way; staff see it on their next refresh.
    logger.warn({ err: error }, "sign-up event could not be published");
  }
}
