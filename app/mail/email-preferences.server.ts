import { compiledOnce } from "~/db/compiled-once.server";
import type { Db } from "~/db/database.server";
import { defaultEmailPreferences, emailKinds, type EmailKind, type EmailPreferences } from "./email-kinds";
import { writing } from "~/core/transaction.server";

/** The learner's choices; every kind is 'immediate' until they change it. */
export async function readEmailPreferences(db: Db, learnerId: string): Promise<EmailPreferences> {
  const [row] = await preferencesRow(db, learnerId);
  return row ?? { ...defaultEmailPreferences };
}

// Read on every dashboard request: compiled once.
const preferencesRow = compiledOnce((db: Db, learnerId: string) =>
  db
    .selectFrom("email_preference")
    .select([...emailKinds])
    .where("learnerId", "=", learnerId),
);

/**
 * Stores the learner's choices. The digest lists what arrives from the moment a kind first goes
 * on it; a learner who takes every kind off the digest has nothing waiting for one.
 */
export async function saveEmailPreferences(
  db: Db,
  learnerId: string,
  preferences: EmailPreferences,
  now = new Date(),
): Promise<void> {
  // Only the learner's own pages show their choices.
  const anyDigest = emailKinds.some((kind) => preferences[kind] === "digest");
  const updatedAt = now.toISOString();
  await writing(db, { privately: [learnerId] }, (trx) =>
    trx
      .insertInto("email_preference")
      .values({ learnerId, ...preferences, digestFrom: anyDigest ? updatedAt : null, updatedAt, digestSentOn: null })
      .onConflict((conflict) =>
        conflict.column("learnerId").doUpdateSet((eb) => ({
          ...preferences,
          // One statement: a digest already under way keeps its start.
          digestFrom: anyDigest ? eb.fn.coalesce("email_preference.digestFrom", eb.val(updatedAt)) : null,
          updatedAt,
        })),
      )
      .execute(),
  );
}

/** What an unsubscribe link does: these kinds off, the rest as they were. */
export async function turnOffEmails(db: Db, learnerId: string, kinds: readonly EmailKind[], now = new Date()) {
  const current = await readEmailPreferences(db, learnerId);
  const next = { ...current };
  for (const kind of kinds) next[kind] = "off";
  await saveEmailPreferences(db, learnerId, next, now);
}
