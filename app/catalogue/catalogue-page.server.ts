import type { z } from "zod";
import { authorizeFormChange, refuse, requireRole } from "~/accounts/permissions.server";
import { getServices } from "~/platform/services.server";
import { actorOf } from "~/core/people";
import type { ActionResult } from "~/core/result";
import {
  addCourseSchema,
  addOptionSchema,
  moveCourseSchema,
  moveOptionSchema,
  removeOptionSchema,
  saveCourseSchema,
} from "./catalogue-rules";
import {
  addCourse,
  addSignUpOption,
  catalogueForAdmin,
  moveCourse,
  moveSignUpOption,
  removeSignUpOption,
  saveCourse,
  type CatalogueDeps,
} from "./catalogue.server";
import type { Actor } from "~/core/people";

/** /staff/courses: the advertised courses and the sign-up course options (admins only). */
export async function loadCataloguePage(request: Request) {
  const user = await requireRole(request, "admin");
  const { database, config } = await getServices();
  return {
    user: { id: user.id, level: user.level },
    defaultPaymentUrl: config.paymentUrl,
    ...(await catalogueForAdmin(database.db)),
  };
}

/** Each intent: the fields' schema and the change it makes. */
const intents = {
  "save-course": { schema: saveCourseSchema, change: saveCourse },
  "add-course": { schema: addCourseSchema, change: addCourse },
  "move-course": { schema: moveCourseSchema, change: moveCourse },
  "add-sign-up-option": { schema: addOptionSchema, change: addSignUpOption },
  "remove-sign-up-option": { schema: removeOptionSchema, change: removeSignUpOption },
  "move-sign-up-option": { schema: moveOptionSchema, change: moveSignUpOption },
} satisfies Record<
  string,
  { schema: z.ZodType; change: (deps: CatalogueDeps, actor: Actor, input: never) => Promise<ActionResult> }
>;

type CatalogueIntent = keyof typeof intents;

declare module "~/core/intent-names" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the names are the members
  interface IntentNames extends Record<CatalogueIntent, true> {}
}

/** The page's changes (admin; one unit of the staff budget of changes), by `intent`, each audited. */
export async function catalogueAction(request: Request) {
  const access = await authorizeFormChange(request, "admin");
  if (!access.ok) return access.refusal;
  const { fields } = access;
  const name = fields.intent ?? "";
  const intent = Object.hasOwn(intents, name) ? intents[name as CatalogueIntent] : undefined;
  if (!intent) return refuse(400, "Unknown action.");
  const parsed = intent.schema.safeParse(fields);
  if (!parsed.success) return refuse(400, parsed.error.issues[0]?.message ?? "Invalid request.");
  const { database, bus } = await getServices();
  const result = await intent.change({ db: database.db, bus }, actorOf(access.user), parsed.data as never);
  return result.ok ? result : refuse(result.status, result.message);
}
