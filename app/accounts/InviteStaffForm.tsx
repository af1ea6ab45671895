import { useId } from "react";
import { ActionForm } from "~/ui/ActionForm";
import { controlClass, Field, labelClass } from "~/ui/form";
import { primaryButton } from "~/ui/styles";
import { invitationLimits, invitedRoles, staffInvitationSchema } from "./staff-invitation-fields";

/**
 * An admin invites a trainer, staff member or admin by email (intent `invite-staff`): the
 * invitee gets an email to choose a password and lands on /staff. An email that already has an
 * account is refused with what it is; nothing about that account changes.
 */
export function InviteStaffForm() {
  const ids = useId();
  return (
    <section aria-labelledby={`${ids}-title`} id="invite" className="mt-6 scroll-mt-20">
      <h2 id={`${ids}-title`} className="text-xl font-bold text-slate-900">
        Invite staff
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        They get an email to choose a password (the link works for 7 days), then sign in to the staff pages.
      </p>
      <ActionForm
        intent="invite-staff"
        schema={staffInvitationSchema}
        label="Invite staff"
        className="mt-3 flex max-w-3xl flex-wrap items-end gap-3"
      >
        <Field
          className="min-w-48 flex-1"
          id={`${ids}-name`}
          name="name"
          label="Name"
          required
          maxLength={invitationLimits.name}
          autoComplete="off"
        />
        <Field
          className="min-w-56 flex-1"
          id={`${ids}-email`}
          name="email"
          type="email"
          label="Email"
          required
          maxLength={invitationLimits.email}
          autoComplete="off"
        />
        <div>
          <label htmlFor={`${ids}-role`} className={labelClass}>
            Role
          </label>
          <select id={`${ids}-role`} name="role" defaultValue="trainer" className={controlClass}>
            {invitedRoles.map((role) => (
              <option key={role} value={role}>
                {role}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className={primaryButton}>
          Send invitation
        </button>
      </ActionForm>
    </section>
  );
}
