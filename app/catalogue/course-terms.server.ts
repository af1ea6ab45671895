import type { Db } from "~/db/database.server";
import type { ActionResult } from "~/core/result";
import { termsOf } from "~/placement/fee-terms";
import type { FeeTerms } from "~/placement/fees";
import { catalogueMessages } from "./catalogue-rules";

// A course's pay-after-placement fee terms: read beside it, and checked before it takes them.

/** The fee terms' columns, read beside a course (null when it has none). */
export const termsColumns = [
  "fee_terms.name as termsName",
  "fee_terms.ctcThresholdPaise",
  "fee_terms.feeKind",
  "fee_terms.feeAmountPaise",
  "fee_terms.feeBasisPoints",
  "fee_terms.capPaise",
  "fee_terms.instalments",
  "fee_terms.placementWindowMonths",
  "fee_terms.gstBasisPoints",
] as const;

type JoinedTerms = {
  feeKind: "fixed" | "percent" | null;
  ctcThresholdPaise: number | string | null;
  feeAmountPaise: number | string | null;
  feeBasisPoints: number | null;
  capPaise: number | string | null;
  instalments: number | null;
  placementWindowMonths: number | null;
  gstBasisPoints: number | null;
};

/** A course's terms from its left-joined row, or null when it has none. */
export function joinedTerms(row: JoinedTerms): FeeTerms | null {
  if (row.feeKind === null) return null;
  return termsOf({
    ...row,
    feeKind: row.feeKind,
    ctcThresholdPaise: row.ctcThresholdPaise ?? 0,
    instalments: row.instalments ?? 1,
    placementWindowMonths: row.placementWindowMonths ?? 0,
    gstBasisPoints: row.gstBasisPoints ?? 0,
  });
}

/**
 * The name of the fee terms a course is to have, or why it may not: terms that no longer
 * exist, or taking its terms away (`takenFrom`: the course that has them) while
 * pay-after-placement batches follow them.
 */
export async function termsFor(
  trx: Db,
  termsId: string | null,
  takenFrom: string | null,
): Promise<{ name: string | null } | ActionResult> {
  if (termsId !== null) {
    const terms = await trx.selectFrom("fee_terms").select("name").where("id", "=", termsId).executeTakeFirst();
    return terms ? { name: terms.name } : { ok: false, status: 404, message: catalogueMessages.termsGone };
  }
  if (takenFrom === null) return { name: null };
  const following = await trx
    .selectFrom("batch")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where("courseSlug", "=", takenFrom)
    .where("payment", "=", "pap")
    .where("termsId", "is", null)
    .executeTakeFirstOrThrow();
  const batches = Number(following.n);
  return batches > 0 ? { ok: false, status: 409, message: catalogueMessages.termsInUse(batches) } : { name: null };
}
