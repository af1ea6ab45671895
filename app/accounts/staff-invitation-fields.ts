import { z } from "zod";

/** The roles an admin invites someone with: a trainer (their batches), staff, or another admin. */
export const invitedRoles = ["trainer", "staff", "admin"] as const;
export type InvitedRole = (typeof invitedRoles)[number];

export const invitationLimits = { name: 100, email: 254 } as const;

export const staffInvitationMessages = {
  email: "Enter the email address to invite.",
  name: "Enter the name of the person to invite.",
  nameTooLong: `A name can be at most ${invitationLimits.name} characters.`,
  role: "Choose trainer, staff or admin.",
  exists: (email: string, role: string | null) =>
    `${email} already has an account (${role ? `role ${role}` : "a learner"}). Nothing was changed and no invitation was sent: change their role under People and roles instead.`,
  sent: (email: string, role: InvitedRole) =>
    `Invitation sent to ${email} as ${role}. They choose a password from the email (the link works for 7 days) and land on the staff pages.`,
} as const;

/** The invitation form's fields (the server's intent parses with this, the form checks with it). */
export const staffInvitationSchema = z.object({
  email: z
    .string()
    .trim()
    .toLowerCase()
    .min(1, staffInvitationMessages.email)
    .max(invitationLimits.email, staffInvitationMessages.email)
    .pipe(z.email(staffInvitationMessages.email)),
  name: z
    .string()
    .trim()
    .min(1, staffInvitationMessages.name)
    .max(invitationLimits.name, staffInvitationMessages.nameTooLong)
    .refine((name) => !/[\p{Cc}]/u.test(name), staffInvitationMessages.name),
  role: z.enum(invitedRoles, { error: staffInvitationMessages.role }),
});
