import type { Db } from "~/db/database.server";
import { staffTopic, userTopic } from "~/realtime/events";
import type { StaffAction } from "~/core/audit-actions";
import { recordAudit } from "~/core/audit.server";
import type { Deps } from "~/core/deps";
import type { Actor } from "~/core/people";
import type { ActionResult } from "~/core/result";
import { inTransaction } from "~/core/transaction.server";
import { settleFees } from "./settle-fees.server";

/** Who did it, as the records keep it: learners by their own name, staff by the audit's. */
export type Changer = { kind: "staff"; actor: Actor } | { kind: "learner"; learnerId: string; name: string };

export type Result<T = object> = ActionResult<T>;

export const fail = (status: 400 | 403 | 404 | 409, message: string): Result<never> => ({ ok: false, status, message });

export const now = () => new Date().toISOString();

export const changerName = (changer: Changer) => (changer.kind === "staff" ? changer.actor.name : changer.name);

/** The audit log's row for one staff change. */
interface AuditNote {
  actor: Actor;
  action: StaffAction;
  detail: string | null;
  targetId: string | null;
  target: string;
}

/** A change's audit row when staff made it; a learner's changes to their own records have none. */
export function auditBy(changer: Changer, note: Omit<AuditNote, "actor">): AuditNote | null {
  return changer.kind === "staff" ? { actor: changer.actor, ...note } : null;
}

interface PlacementChange {
  /** Writes the change; "unchanged" when, on a second look inside the transaction, nothing was left to do. */
  write: (trx: Db) => Promise<void | "unchanged">;
  audit: AuditNote | null;
  /** The learner whose fees this change could make due (a stage move, an offer's review, an acceptance). */
  settleFeesOf?: string;
  /**
   * Whose records changed: their tabs and every staff page are told; "staff" tells only staff
   * pages. `consentOnly`: only whether the learner may be named changed, not any figure.
   */
  announce: { learnerId: string; consentOnly?: true } | "staff" | "nobody";
  /** The success line. */
  message: string;
}

/**
 * Every change to placement records goes the same way: its rows, its audit row and any fee
 * decision it makes due in one transaction, and the pages told only once that has committed.
 */
export async function commitChange(deps: Deps, change: PlacementChange): Promise<{ ok: true; message: string }> {
  // A learner's records show on their pages and staff's; batches and fee terms on everyone's.
  const touches = typeof change.announce === "object" ? { people: [change.announce.learnerId] } : { everyone: true };
  await inTransaction(deps, touches, async (trx, bus) => {
    if ((await change.write(trx)) === "unchanged") return;
    if (change.audit) {
      const { actor, ...entry } = change.audit;
      await recordAudit(trx, actor, { ...entry, count: 1 });
    }
    if (change.settleFeesOf) await settleFees(trx, change.settleFeesOf);
    const { announce } = change;
    if (announce === "staff") {
      await bus.publish(staffTopic, { type: "placement" });
    } else if (announce !== "nobody") {
      await bus.publishMany([
        [userTopic(announce.learnerId), { type: "placement" }],
        [
          staffTopic,
          {
            type: "placement",
            learnerId: announce.learnerId,
            ...(announce.consentOnly ? { consentOnly: true as const } : {}),
          },
        ],
      ]);
    }
  });
  return { ok: true, message: change.message };
}
