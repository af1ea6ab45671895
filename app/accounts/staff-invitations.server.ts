import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { recordAudit } from "~/core/audit.server";
import type { Deps } from "~/core/deps";
import type { Actor } from "~/core/people";
import type { ActionResult } from "~/core/result";
import { inTransaction } from "~/core/transaction.server";
import { mailTopic } from "~/realtime/events";
import { queueInvitations } from "./invitations.server";
import { staffInvitationMessages, type InvitedRole } from "./staff-invitation-fields";

/**
 * An admin invites someone to the staff (intent `invite-staff`): an account with that role and
 * no password is made, and the invitation email (the imported learners' own: a password-reset
 * token valid for a week, made as the mail queue sends it) asks them to choose one; signed in
 * from it, they land on /staff. An email that already has an account is refused (409) with what
 * it is: nothing changes, no mail goes; roles of existing accounts change under People and roles.
 */
export async function inviteStaff(
  deps: Pick<Deps, "db" | "bus">,
  actor: Actor,
  input: { email: string; name: string; role: InvitedRole },
): Promise<ActionResult<{ userId: string }>> {
  const outcome = await inTransaction(deps, { staff: true }, async (trx, bus) => {
    const existing = await trx
      .selectFrom("user")
      .select(["id", "role"])
      .where(sql<string>`lower("email")`, "=", input.email)
      .executeTakeFirst();
    if (existing) return { exists: existing.role || null };
    const id = randomUUID();
    const now = new Date().toISOString();
    const inserted = await trx
      .insertInto("user")
      .values({
        id,
        name: input.name,
        username: null,
        email: input.email,
        emailVerified: false,
        image: null,
        createdAt: now,
        updatedAt: now,
        role: input.role,
        roleChangedAt: now,
      })
      // Signed up a moment ago, between the read and this write: that account is left alone.
      .onConflict((conflict) => conflict.column("email").doNothing())
      .returning("id")
      .executeTakeFirst();
    if (!inserted) return { exists: null };
    await queueInvitations(trx, [id]);
    await recordAudit(trx, actor, {
      action: "invite-staff",
      detail: input.role,
      targetId: id,
      target: `${input.name} <${input.email}>`,
      count: 1,
    });
    await bus.publish(mailTopic, { type: "mail-queued" });
    return { userId: id };
  });
  if ("exists" in outcome) {
    return { ok: false, status: 409, message: staffInvitationMessages.exists(input.email, outcome.exists ?? null) };
  }
  return { ok: true, message: staffInvitationMessages.sent(input.email, input.role), userId: outcome.userId };
}
