import { intent } from "~/core/intent";
import { staffInvitationSchema } from "./staff-invitation-fields";
import { inviteStaff } from "./staff-invitations.server";

/** Accounts' staff actions, by the `intent` their forms send (the staff gate combines the tables). */
export const accountIntents = {
  // Each invitation is an email to an address the admin typed: a few an hour are plenty.
  "invite-staff": intent({
    need: "admin",
    fields: staffInvitationSchema,
    ownLimit: { max: 20, windowMs: 60 * 60_000 },
    run: inviteStaff,
  }),
};
