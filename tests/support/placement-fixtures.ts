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

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

/**
 * A learner placed (a verified offer, joined) within 180 days of a batch that ended 200 days
 * ago: what /outcomes counts, and names once the learner consents. Returns the batch's id.
 */
export async function placeInPublishedBatch(db: Db, learnerId: string): Promise<string> {
  const batchId = await insertBatch(db, {
    name: "Web Development – Jan",
    course: "Web Development",
    startDate: daysAgo(380),
    endDate: daysAgo(200),
    payment: "upfront",
    termsId: null,
  });
  await insertEnrolment(db, { batchId, learnerId, graduation: "graduated", seeking: true });
  await insertOffer(db, learnerId, {
    company: "Persistent Systems",
    stage: "joined",
    status: "verified",
    offerDate: daysAgo(180),
    joiningDate: daysAgo(170),
    ctcPaise: 450_000_00,
  });
  return batchId;
}
