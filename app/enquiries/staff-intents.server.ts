import { intent } from "~/core/intent";
import { addEnquiryNote, inviteEnquirer, setEnquiryStatus } from "./enquiries.server";
import { enquiryInviteSchema, enquiryNoteSchema, enquiryStatusSchema } from "./enquiry-fields";

/** The enquiries inbox's staff actions, by the `intent` their forms send (the staff gate combines the tables). */
export const enquiryIntents = {
  "enquiry-status": intent({ need: "staff", fields: enquiryStatusSchema, run: setEnquiryStatus }),
  "enquiry-note": intent({ need: "staff", fields: enquiryNoteSchema, run: addEnquiryNote }),
  "enquiry-invite": intent({ need: "staff", fields: enquiryInviteSchema, run: inviteEnquirer }),
};
