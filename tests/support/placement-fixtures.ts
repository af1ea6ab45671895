// Placement records written straight into the tables, so that a test chooses every date and
// amount: batches, enrolments, and applications with their offer.
import { randomUUID } from "node:crypto";
import type { Db } from "~/db/database.server";
import type { Insertable } from "kysely";
import type { BatchTable } from "~/db/schema";
import type { ApplicationStage, Graduation } from "~/placement/stages";

/** A batch; returns its id. */
export async function insertBatch(db: Db, batch: Omit<Insertable<BatchTable>, "id" | "createdAt">): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto("batch")
    .values({ id, ...batch, createdAt: new Date().toISOString() })
    .execute();
  return id;
}

/** A learner's enrolment in a batch (seeking at graduation when graduated); returns its id. */
export async function insertEnrolment(
  db: Db,
  enrolment: { batchId: string; learnerId: string; graduation: Graduation; seeking: boolean },
): Promise<string> {
  const id = randomUUID();
  const seeking = enrolment.seeking ? 1 : 0;
  await db
    .insertInto("enrolment")
    .values({
      id,
      batchId: enrolment.batchId,
      learnerId: enrolment.learnerId,
      seeking,
      graduation: enrolment.graduation,
      seekingAtGraduation: enrolment.graduation === "graduated" ? seeking : null,
      createdAt: new Date().toISOString(),
    })
    .execute();
  return id;
}

/** A job application at `stage` with its offer (reviewed by "Staff" unless pending); returns the application's id. */
export async function insertOffer(
  db: Db,
  learnerId: string,
  offer: {
    company?: string;
    source?: "referral" | "own";
    stage: ApplicationStage;
    status: "pending" | "verified" | "rejected";
    offerDate: string;
    joiningDate: string;
    ctcPaise: number;
  },
): Promise<string> {
  const applicationId = randomUUID();
  const at = new Date().toISOString();
  await db
    .insertInto("job_application")
    .values({
      id: applicationId,
      learnerId,
      company: offer.company ?? "Acme",
      role: "Developer",
      source: offer.source ?? "own",
      stage: offer.stage,
      interviewRound: 1,
      createdByName: "Staff",
      createdAt: at,
      updatedAt: at,
    })
    .execute();
  const reviewed = offer.status !== "pending";
  await db
    .insertInto("job_offer")
    .values({
      applicationId,
      learnerId,
      fixedCtcPaise: offer.ctcPaise,
      variableCtcPaise: 0,
      location: "Pune",
      offerDate: offer.offerDate,
      joiningDate: offer.joiningDate,
      storageKey: `offers/${applicationId}.pdf`,
      fileName: "offer.pdf",
      status: offer.status,
      reviewedByName: reviewed ? "Staff" : null,
      reviewedAt: reviewed ? at : null,
      rejectReason: null,
      createdAt: at,
    })
    .execute();
  return applicationId;
}
