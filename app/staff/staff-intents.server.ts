import { accountIntents } from "~/accounts/staff-intents.server";
import { assignmentIntents } from "~/assignments/staff-intents.server";
import { batchIntents } from "~/batches/staff-intents.server";
import { intent } from "~/core/intent";
import { documentIntents } from "~/documents/staff-intents.server";
import { enquiryIntents } from "~/enquiries/staff-intents.server";
import { placementIntents } from "~/placement/staff-intents.server";
import { writeLimits } from "~/security/rate-limit.server";
import {
  changeRole,
  clearForLearner,
  deleteSentItem,
  previewMessage,
  saveOfferLetter,
  sendToLearner,
  sendToMatching,
  sendToSelected,
} from "./staff-actions.server";
import { deleteView, saveView } from "./saved-views.server";
import { dismissFirstRun } from "./first-run.server";
import { dismissFirstRunSchema } from "./first-run-items";
import { deleteViewSchema, saveViewSchema } from "./saved-view-fields";
import {
  bulkSendSchema,
  clearSchema,
  deleteMessageSchema,
  offerLetterSchema,
  previewSchema,
  roleSchema,
  sendSchema,
  sendSelectedSchema,
} from "./staff-types";
import { staffMessages } from "~/learners/staff-messages";

/** The staff workspace's own actions: messages, offer letters and roles. */
const messageIntents = {
  send: intent({ need: "staff", fields: sendSchema, run: sendToLearner }),
  "bulk-send": intent({ need: "staff", fields: bulkSendSchema, ownLimit: writeLimits.bulkSend, run: sendToMatching }),
  "send-selected": intent({
    need: "staff",
    fields: sendSelectedSchema,
    ownLimit: writeLimits.bulkSend,
    run: sendToSelected,
  }),
  preview: intent({ need: "staff", fields: previewSchema, run: previewMessage }),
  clear: intent({
    need: "admin",
    fields: clearSchema,
    staffRefusal: (input) => staffMessages.noClearPermission(input.kind),
    run: clearForLearner,
  }),
  "delete-message": intent({ need: "admin", fields: deleteMessageSchema, run: deleteSentItem }),
  "save-offer-letter": intent({ need: "admin", fields: offerLetterSchema, run: saveOfferLetter }),
  "change-role": intent({ need: "admin", fields: roleSchema, run: changeRole }),
  "save-view": intent({ need: "staff", fields: saveViewSchema, run: saveView }),
  "delete-view": intent({ need: "staff", fields: deleteViewSchema, run: deleteView }),
  "dismiss-first-run": intent({ need: "admin", fields: dismissFirstRunSchema, run: dismissFirstRun }),
};

/**
 * Every staff action, by the `intent` its form sends: each feature's table, combined. A name in
 * two tables fails the typecheck (`Disjoint` below), so none silently replaces another.
 */
export const staffIntents = {
  ...messageIntents,
  ...documentIntents,
  ...placementIntents,
  ...enquiryIntents,
  ...batchIntents,
  ...assignmentIntents,
  ...accountIntents,
};

export type StaffIntentName = keyof typeof staffIntents;

export function isStaffIntentName(name: string): name is StaffIntentName {
  return Object.hasOwn(staffIntents, name);
}

type Disjoint<A, B> = [keyof A & keyof B] extends [never] ? true : never;
const disjoint: [
  Disjoint<typeof messageIntents, typeof documentIntents>,
  Disjoint<typeof messageIntents & typeof documentIntents, typeof placementIntents>,
  Disjoint<typeof messageIntents & typeof documentIntents & typeof placementIntents, typeof enquiryIntents>,
  Disjoint<
    typeof messageIntents & typeof documentIntents & typeof placementIntents & typeof enquiryIntents,
    typeof batchIntents & typeof assignmentIntents
  >,
  Disjoint<typeof batchIntents, typeof assignmentIntents>,
  Disjoint<
    typeof messageIntents &
      typeof documentIntents &
      typeof placementIntents &
      typeof enquiryIntents &
      typeof batchIntents &
      typeof assignmentIntents,
    typeof accountIntents
  >,
] = [true, true, true, true, true, true];
void disjoint;

declare module "~/core/intent-names" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the names are the members
  interface IntentNames extends Record<StaffIntentName, true> {}
}
