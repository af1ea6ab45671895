import { sql } from "kysely";
import { personName } from "~/accounts/person-name";
import { requireRole } from "~/accounts/permissions.server";
import { getServices } from "~/platform/services.server";
import { plain } from "~/core/fields";
import { courseChoices } from "~/catalogue/catalogue.server";
import { formatRupees } from "~/core/money";
import { percentText } from "./fee-terms";
import { applicationStages, type ApplicationStage } from "./stages";
import { termsSourceOf } from "./terms-source";

/** Cards a board column shows; its count is always the whole column's. */
const cardsPerColumn = 50;

const filterText = plain(200, "Unknown filter.").catch("");

/** The staff pipeline: a column per stage, filtered by batch and course (both in the URL). */
export async function loadBoard(request: Request) {
  const user = await requireRole(request, "staff");
  const url = new URL(request.url);
  const batchId = filterText.parse(url.searchParams.get("batch") ?? "");
  const course = filterText.parse(url.searchParams.get("course") ?? "");
  const { database } = await getServices();
  const db = database.db;

  const base = () => {
    let query = db.selectFrom("job_application").innerJoin("user", "user.id", "job_application.learnerId");
    if (batchId || course) {
      query = query.where(({ exists, selectFrom }) =>
        exists(
          selectFrom("enrolment")
            .innerJoin("batch", "batch.id", "enrolment.batchId")
            .select(sql`1`.as("one"))
            .whereRef("enrolment.learnerId", "=", "job_application.learnerId")
            .$if(batchId !== "", (q) => q.where("batch.id", "=", batchId))
            .$if(course !== "", (q) => q.where("batch.course", "=", course)),
        ),
      );
    }
    return query;
  };

  const [counts, columns, batches, courses] = await Promise.all([
    base()
      .select(["job_application.stage", (eb) => eb.fn.countAll<number | string>().as("count")])
      .groupBy("job_application.stage")
      .execute(),
    Promise.all(
      applicationStages.map((stage) =>
        base()
          .leftJoin("job_offer", "job_offer.applicationId", "job_application.id")
          .select([
            "job_application.id",
            "job_application.learnerId",
            "job_application.company",
            "job_application.role",
            "job_application.interviewRound",
            "job_application.updatedAt",
            "user.username",
            "user.name",
            "user.email",
            "job_offer.status as offerStatus",
            "job_offer.fixedCtcPaise",
          ])
          .where("job_application.stage", "=", stage)
          .orderBy("job_application.updatedAt", "desc")
          .orderBy("job_application.id")
          .limit(cardsPerColumn)
          .execute(),
      ),
    ),
    db.selectFrom("batch").select(["id", "name"]).orderBy("startDate", "desc").limit(500).execute(),
    db.selectFrom("batch").select("course").distinct().orderBy("course").limit(500).execute(),
  ]);
  const countOf = new Map(counts.map((row) => [row.stage, Number(row.count)]));
  return {
    user: { username: user.username, level: user.level },
    filter: { batchId, course },
    batches,
    courses: courses.map((row) => row.course),
    columns: applicationStages.map((stage: ApplicationStage, index) => ({
      stage,
      count: countOf.get(stage) ?? 0,
      cards: (columns[index] ?? []).map((row) => ({
        id: row.id,
        learnerId: row.learnerId,
        learner: personName(row),
        company: row.company,
        role: row.role,
        round: row.interviewRound,
        offer: row.offerStatus
          ? { status: row.offerStatus, fixedCtc: formatRupees(Number(row.fixedCtcPaise ?? 0)) }
          : null,
      })),
    })),
  };
}

/** Batches with their enrolment counts, and the fee terms a PAP batch is created with. */
export async function loadBatches(request: Request) {
  const user = await requireRole(request, "staff");
  const { database } = await getServices();
  const db = database.db;
  const [batches, terms] = await Promise.all([
    db
      .selectFrom("batch")
      .leftJoin("course", "course.slug", "batch.courseSlug")
      .leftJoin("fee_terms as own_terms", "own_terms.id", "batch.termsId")
      .leftJoin("fee_terms as course_terms", "course_terms.id", "course.termsId")
      .select((eb) => [
        "batch.id",
        "batch.name",
        "batch.course",
        "batch.startDate",
        "batch.endDate",
        "batch.payment",
        "batch.schedule",
        "own_terms.name as ownTermsName",
        "course_terms.name as courseTermsName",
        eb
          .selectFrom("enrolment")
          .select(eb.fn.countAll<number | string>().as("n"))
          .whereRef("enrolment.batchId", "=", "batch.id")
          .as("enrolled"),
      ])
      .orderBy("batch.startDate", "desc")
      .limit(500)
      .execute(),
    db.selectFrom("fee_terms").selectAll().orderBy("createdAt", "desc").limit(200).execute(),
  ]);
  return {
    user: { username: user.username, level: user.level },
    courses: await courseChoices(db),
    batches: batches.map(({ ownTermsName, courseTermsName, ...b }) => ({
      ...b,
      enrolled: Number(b.enrolled ?? 0),
      termsName: ownTermsName ?? courseTermsName ?? null,
      termsSource: termsSourceOf(ownTermsName ?? null, courseTermsName ?? null),
    })),
    terms: terms.map((t) => ({
      id: t.id,
      name: t.name,
      summary: [
        `threshold ${formatRupees(Number(t.ctcThresholdPaise))}`,
        t.feeKind === "fixed"
          ? `fee ${formatRupees(Number(t.feeAmountPaise ?? 0))}`
          : `fee ${percentText(t.feeBasisPoints ?? 0)} of fixed CTC`,
        t.capPaise === null ? "no cap" : `cap ${formatRupees(Number(t.capPaise))}`,
        `${t.instalments} instalments`,
        `${t.placementWindowMonths}-month window`,
        `GST ${percentText(t.gstBasisPoints)}`,
      ].join(", "),
    })),
  };
}
