import type { Config } from "~/config/config.server";
import type { Deps } from "~/core/deps";
import { intent } from "~/core/intent";
import { addReferral, moveApplication } from "./applications.server";
import { createBatch, defineTerms } from "./batches.server";
import { setBatchTerms } from "./batch-terms.server";
import { enrolLearner, setGraduation, setSeeking } from "./enrolments.server";
import { rejectOffer, verifyOffer } from "./offers.server";
import { pauseFees, recordPayment, waiveInstalment } from "./payments.server";
import {
  addReferralSchema,
  createBatchSchema,
  createTermsSchema,
  enrolSchema,
  moveApplicationSchema,
  pauseSchema,
  paymentSchema,
  placementMessages,
  rejectOfferSchema,
  setBatchTermsSchema,
  setGraduationSchema,
  setSeekingSchema,
  verifyOfferSchema,
  waiveSchema,
} from "./placement-fields";
import { instituteToday } from "./today.server";

/** A pause is dated from today in the institute, so its intent needs the time zone too. */
type PauseDeps = Deps & { config: Pick<Config, "instituteTimeZone"> };

/** Placement's staff actions, by the `intent` their forms send (the staff gate combines the tables). */
export const placementIntents = {
  "define-terms": intent({
    need: "admin",
    fields: createTermsSchema,
    staffRefusal: () => placementMessages.staffCannotDefineTerms,
    run: defineTerms,
  }),
  "create-batch": intent({ need: "staff", fields: createBatchSchema, run: createBatch }),
  "set-batch-terms": intent({
    need: "admin",
    fields: setBatchTermsSchema,
    staffRefusal: () => placementMessages.staffCannotSetBatchTerms,
    run: setBatchTerms,
  }),
  enrol: intent({ need: "staff", fields: enrolSchema, run: enrolLearner }),
  "set-seeking": intent({
    need: "staff",
    fields: setSeekingSchema,
    run: (deps: Deps, actor, input) => setSeeking(deps, { kind: "staff", actor }, input),
  }),
  "set-graduation": intent({ need: "staff", fields: setGraduationSchema, run: setGraduation }),
  "add-referral": intent({ need: "staff", fields: addReferralSchema, run: addReferral }),
  "move-application": intent({
    need: "staff",
    fields: moveApplicationSchema,
    run: (deps: Deps, actor, input) => moveApplication(deps, { kind: "staff", actor }, input),
  }),
  "verify-offer": intent({ need: "staff", fields: verifyOfferSchema, run: verifyOffer }),
  "reject-offer": intent({ need: "staff", fields: rejectOfferSchema, run: rejectOffer }),
  "record-payment": intent({ need: "staff", fields: paymentSchema, run: recordPayment }),
  "pause-fees": intent({
    need: "staff",
    fields: pauseSchema,
    run: (deps: PauseDeps, actor, input) => pauseFees(deps, actor, input, instituteToday(deps.config)),
  }),
  "waive-instalment": intent({
    need: "admin",
    fields: waiveSchema,
    staffRefusal: () => placementMessages.staffCannotWaive,
    run: waiveInstalment,
  }),
};
