import { randomUUID } from "node:crypto";
import { personName } from "~/accounts/person-name";
import type { Db } from "~/db/database.server";
import type { Actor } from "~/core/people";
import { idFromAddress } from "~/core/text";
import type { UploadStorage } from "~/uploads/storage.server";
import type { Deps } from "~/core/deps";
import type { z } from "zod";
import { commitChange, fail, now, type Result } from "./change.server";
import { applicationOf } from "./lookups.server";
import {
  placementMessages as messages,
  type offerSchema,
  type rejectOfferSchema,
  type verifyOfferSchema,
} from "./placement-fields";
import { acceptedStages } from "./stages";
import { storedFileName } from "~/uploads/stored-file-name";

// The offers learners record with their letters, and the institute's verification of them.

/**
 * The learner records (or corrects, until it is verified) the offer for one of their
 * applications, with the offer letter already stored under `storageKey`. Returns the key it
 * replaced, for the caller to delete once this has committed.
 */
export async function recordOffer(
  deps: Deps,
  learner: { id: string; name: string },
  input: z.infer<typeof offerSchema>,
  file: { storageKey: string; fileName: string },
): Promise<Result<{ replacedKey: string | null }>> {
  const application = await applicationOf(deps.db, input.applicationId);
  if (!application || application.learnerId !== learner.id) return fail(404, messages.unknownApplication);
  if (application.offerStatus === "verified") return fail(409, messages.offerVerified);
  const at = now();
  const fields = {
    fixedCtcPaise: input.fixedCtc,
    variableCtcPaise: input.variableCtc,
    location: input.location,
    offerDate: input.offerDate,
    joiningDate: input.joiningDate,
    storageKey: file.storageKey,
    fileName: storedFileName(file.fileName, "offer-letter.pdf"),
    status: "pending" as const,
    reviewedByName: null,
    reviewedAt: null,
    rejectReason: null,
  };
  const done = await commitChange(deps, {
    write: async (trx) => {
      if (application.offerStatus) {
        await trx.updateTable("job_offer").set(fields).where("applicationId", "=", application.id).execute();
      } else {
        await trx
          .insertInto("job_offer")
          .values({ ...fields, applicationId: application.id, learnerId: learner.id, createdAt: at })
          .execute();
      }
      if (application.stage === "offered" || acceptedStages.includes(application.stage)) return;
      await trx
        .updateTable("job_application")
        .set({ stage: "offered", updatedAt: at })
        .where("id", "=", application.id)
        .execute();
      await trx
        .insertInto("application_stage")
        .values({
          id: randomUUID(),
          applicationId: application.id,
          stage: "offered",
          interviewRound: application.interviewRound,
          changedByName: learner.name,
          changedAt: at,
        })
        .execute();
    },
    audit: null,
    announce: { learnerId: learner.id },
    message: messages.offerRecorded,
  });
  return { ...done, replacedKey: application.offerStorageKey ?? null };
}

async function reviewOffer(
  deps: Deps,
  actor: Actor,
  applicationId: string,
  verdict: { status: "verified" } | { status: "rejected"; reason: string },
): Promise<Result> {
  const application = await applicationOf(deps.db, applicationId);
  if (!application || !application.offerStatus) return fail(404, messages.unknownApplication);
  if (application.offerStatus !== "pending") return fail(409, messages.offerNotPending);
  return commitChange(deps, {
    write: async (trx) => {
      const changed = await trx
        .updateTable("job_offer")
        .set({
          status: verdict.status,
          reviewedByName: actor.name,
          reviewedAt: now(),
          rejectReason: verdict.status === "rejected" ? verdict.reason : null,
        })
        .where("applicationId", "=", application.id)
        .where("status", "=", "pending")
        .executeTakeFirst();
      // Another reviewer got there first: theirs is the verdict on record.
      if (Number(changed.numUpdatedRows) !== 1) return "unchanged";
    },
    audit: {
      actor,
      action: verdict.status === "verified" ? "verify-offer" : "reject-offer",
      detail: verdict.status === "rejected" ? `${application.company}: ${verdict.reason}` : application.company,
      targetId: application.learnerId,
      target: personName(application),
    },
    settleFeesOf: application.learnerId,
    announce: { learnerId: application.learnerId },
    message: verdict.status === "verified" ? messages.offerVerifiedDone : messages.offerRejected,
  });
}

export function verifyOffer(deps: Deps, actor: Actor, input: z.infer<typeof verifyOfferSchema>) {
  return reviewOffer(deps, actor, input.applicationId, { status: "verified" });
}

export function rejectOffer(deps: Deps, actor: Actor, input: z.infer<typeof rejectOfferSchema>) {
  return reviewOffer(deps, actor, input.applicationId, { status: "rejected", reason: input.reason });
}

/** The offer letter's file, for its owner or staff (the caller checks which). */
export async function offerFile(db: Db, storage: UploadStorage, applicationId: string) {
  const id = idFromAddress(applicationId);
  if (!id) return null;
  const offer = await db
    .selectFrom("job_offer")
    .select(["learnerId", "storageKey", "fileName"])
    .where("applicationId", "=", id)
    .executeTakeFirst();
  if (!offer) return null;
  const object = await storage.get(offer.storageKey);
  return object ? { ...object, learnerId: offer.learnerId, fileName: offer.fileName } : null;
}
