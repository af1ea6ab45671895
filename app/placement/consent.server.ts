import type { Deps } from "~/core/deps";
import { commitChange, now, type Result } from "./change.server";
import { consentText } from "./agreement-text";
import { placementMessages as messages } from "./placement-fields";

/** The learner gives or withdraws their consent to be named among the placed learners on the public site. */
export function setPublicConsent(deps: Deps, learnerId: string, given: boolean): Promise<Result> {
  return commitChange(deps, {
    // Consent given twice or withdrawn twice changes nothing, so it tells no page to rebuild.
    write: async (trx) => {
      const rows = given
        ? (
            await trx
              .insertInto("public_consent")
              .values({ learnerId, consentText, givenAt: now() })
              .onConflict((oc) => oc.column("learnerId").doNothing())
              .executeTakeFirst()
          ).numInsertedOrUpdatedRows
        : (await trx.deleteFrom("public_consent").where("learnerId", "=", learnerId).executeTakeFirst()).numDeletedRows;
      return Number(rows ?? 0) === 0 ? "unchanged" : undefined;
    },
    audit: null,
    // Names on /outcomes change, its figures and the landing page's don't.
    announce: { learnerId, consentOnly: true },
    message: given ? messages.consentGiven : messages.consentWithdrawn,
  });
}
