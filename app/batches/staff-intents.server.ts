import type { Deps } from "~/core/deps";
import { intent } from "~/core/intent";
import { issueBatchCertificatesSchema } from "~/documents/document-fields";
import { needsSignatory } from "~/documents/settings.server";
import { writeLimits } from "~/security/rate-limit.server";
import { issueBatchCertificates } from "./batch-certificates.server";
import { editBatch } from "./batch-edit.server";
import {
  editBatchSchema,
  enrolLearnersSchema,
  enrolMatchingSchema,
  moveLearnerSchema,
  planEnrolmentSchema,
  removeLearnerSchema,
} from "./batch-rules";
import { enrolLearners, enrolMatching, moveLearner, planEnrolment, removeLearner } from "./membership.server";

/** Batches' staff actions: their course, schedule and trainers, and who is in them. */
export const batchIntents = {
  "edit-batch": intent({ need: "staff", fields: editBatchSchema, run: editBatch }),
  "enrol-learners": intent({
    need: "staff",
    fields: enrolLearnersSchema,
    run: (deps: Deps, actor, input) => enrolLearners(deps, input.batchId, input.learnerIds, actor),
  }),
  "enrol-matching": intent({
    need: "staff",
    fields: enrolMatchingSchema,
    ownLimit: writeLimits.bulkSend,
    run: enrolMatching,
  }),
  "plan-enrolment": intent({
    need: "staff",
    fields: planEnrolmentSchema,
    run: (deps: Deps, _actor, input) => planEnrolment(deps.db, input),
  }),
  "move-learner": intent({ need: "staff", fields: moveLearnerSchema, run: moveLearner }),
  "remove-from-batch": intent({ need: "staff", fields: removeLearnerSchema, run: removeLearner }),
  "issue-batch-certificates": intent({
    need: "staff",
    fields: issueBatchCertificatesSchema,
    ownLimit: writeLimits.bulkSend,
    run: needsSignatory(issueBatchCertificates),
  }),
};
