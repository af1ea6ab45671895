import { data } from "react-router";
import { authorizeChange, refuse, requireRole, requireUser, textFields } from "~/accounts/permissions.server";
import { idFromAddress } from "~/core/text";
import { getServices } from "~/platform/services.server";
import { isLearner } from "~/learners/learner-filter.server";
import { readLimited } from "~/uploads/photos.server";
import { newStorageKey } from "~/uploads/storage.server";
import { consentText } from "./agreement-text";
import {
  acceptAgreementSchema,
  addApplicationSchema,
  moveApplicationSchema,
  offerSchema,
  placementLimits,
  placementMessages,
  setSeekingSchema,
} from "./placement-fields";
import { addApplication, moveApplication } from "./applications.server";
import { setPublicConsent } from "./consent.server";
import { acceptAgreement, setSeeking } from "./enrolments.server";
import { learnerPlacement } from "./learner-placement.server";
import { recordOffer } from "./offers.server";
import { instituteToday } from "./today.server";
import { personName } from "~/accounts/person-name";
import { isPdfDocument } from "~/uploads/pdf-structure.server";

/** What a learner's forms on /placement send as their `intent`: the cases of its action below. */
type LearnerPlacementIntent =
  | "add-application"
  | "move-application"
  | "set-seeking"
  | "accept-agreement"
  | "give-consent"
  | "withdraw-consent"
  | "record-offer";

declare module "~/core/intent-names" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the names are the members
  interface IntentNames extends Record<LearnerPlacementIntent, true> {}
}

/** The learner's own 'My placement' page. */
export async function loadMyPlacement(request: Request) {
  const user = await requireUser(request);
  const { database, config } = await getServices();
  const today = instituteToday(config);
  return {
    user: { username: user.username, level: user.level },
    today,
    timeZone: config.instituteTimeZone,
    consentText,
    placement: await learnerPlacement(database.db, user.id, today),
  };
}

/** A staff member's view of one learner's placement, with the batches they can enrol them in. */
export async function loadLearnerPlacementForStaff(request: Request, learnerId: string | undefined) {
  const user = await requireRole(request, "staff");
  const { database, config } = await getServices();
  const db = database.db;
  const id = idFromAddress(learnerId);
  const learner = id
    ? await db
        .selectFrom("user")
        .select(["id", "username", "name", "email", "course"])
        .where("id", "=", id)
        .where(isLearner)
        .executeTakeFirst()
    : undefined;
  if (!learner) throw data({ message: "No learner has that id." }, { status: 404 });
  const today = instituteToday(config);
  const [placement, batches] = await Promise.all([
    learnerPlacement(db, learner.id, today),
    db
      .selectFrom("batch")
      .select(["id", "name", "course", "payment"])
      .orderBy("startDate", "desc")
      .limit(500)
      .execute(),
  ]);
  return {
    user: { username: user.username, level: user.level },
    today,
    timeZone: config.instituteTimeZone,
    learner: { id: learner.id, name: personName(learner), email: learner.email, course: learner.course ?? "" },
    batches,
    placement,
  };
}

/** A multipart form read whole, but never more than `limit` bytes of it. */
async function boundedForm(request: Request, limit: number): Promise<FormData | "too-large" | "unreadable"> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) return "too-large";
  const body = await readLimited(request.body, limit);
  if (!body) return "too-large";
  try {
    return await new Request(request.url, {
      method: "POST",
      headers: request.headers,
      body: new Uint8Array(body),
    }).formData();
  } catch {
    return "unreadable";
  }
}

/** The learner's changes to their own placement records, by `intent`; never another's. */
export async function myPlacementAction(request: Request) {
  const access = await authorizeChange(request, "learner");
  if (!access.ok) return refuse(access.status, access.message);
  const { user } = access;
  // Room for the offer letter and the few short fields beside it.
  const form = await boundedForm(request, placementLimits.offerFileBytes + 64 * 1024);
  if (form === "too-large") return refuse(413, placementMessages.offerFile);
  if (form === "unreadable") return refuse(400, "Send the form's fields.");
  const fields = textFields(form);
  const services = await getServices();
  const deps = { db: services.database.db, bus: services.bus };
  const me = { kind: "learner" as const, learnerId: user.id, name: user.username || user.email };
  const answer = (result: { ok: true; message: string } | { ok: false; status: number; message: string }) =>
    result.ok ? { ok: true as const, message: result.message } : refuse(result.status, result.message);

  switch (fields.intent as LearnerPlacementIntent | undefined) {
    case "add-application": {
      const parsed = addApplicationSchema.safeParse(fields);
      if (!parsed.success) return refuse(400, parsed.error.issues[0]?.message ?? "Invalid request.");
      return answer(await addApplication(deps, me, user.id, parsed.data));
    }
    case "move-application": {
      const parsed = moveApplicationSchema.safeParse(fields);
      if (!parsed.success) return refuse(400, parsed.error.issues[0]?.message ?? "Invalid request.");
      return answer(await moveApplication(deps, me, parsed.data));
    }
    case "set-seeking": {
      const parsed = setSeekingSchema.safeParse(fields);
      if (!parsed.success) return refuse(400, parsed.error.issues[0]?.message ?? "Invalid request.");
      return answer(await setSeeking(deps, me, parsed.data));
    }
    case "accept-agreement": {
      const parsed = acceptAgreementSchema.safeParse(fields);
      if (!parsed.success) return refuse(400, parsed.error.issues[0]?.message ?? "Invalid request.");
      return answer(await acceptAgreement(deps, user.id, parsed.data));
    }
    case "give-consent":
      return answer(await setPublicConsent(deps, user.id, true));
    case "withdraw-consent":
      return answer(await setPublicConsent(deps, user.id, false));
    case "record-offer": {
      const parsed = offerSchema.safeParse(fields);
      if (!parsed.success) return refuse(400, parsed.error.issues[0]?.message ?? "Invalid request.");
      const file = form.get("offerLetter");
      if (!(file instanceof File) || file.size === 0) return refuse(400, placementMessages.offerFile);
      const bytes = Buffer.from(await file.arrayBuffer());
      if (!isPdfDocument(bytes)) return refuse(415, placementMessages.offerNotPdf);
      const storageKey = newStorageKey("offers", ".pdf");
      await services.storage.put(storageKey, bytes);
      const result = await recordOffer(deps, { id: user.id, name: me.name }, parsed.data, {
        storageKey,
        fileName: file.name,
      });
      // Whichever file is no longer referenced goes: the new one if refused, else the one replaced.
      const unused = result.ok ? result.replacedKey : storageKey;
      if (unused) await services.storage.delete(unused).catch(() => {});
      return answer(result);
    }
    default:
      return refuse(400, "Unknown action.");
  }
}
