import { createHmac, timingSafeEqual } from "node:crypto";
import { data } from "react-router";
import { CLIENT_IP_HEADER } from "~/http/request-context";
import { getServices } from "~/platform/services.server";
import { consumeAttempt, type Limit } from "~/security/rate-limit.server";
import { enquiryCourses } from "./enquiry-courses.server";
import { storeEnquiry } from "./enquiries.server";
import { enquiryFieldNames, enquiryMessages, enquirySchema, minimumFillMs, type EnquiryField } from "./enquiry-fields";

/**
 * The public enquiry form's action, for the landing page and /contact (decision 011). Those
 * pages are cached HTML without React, so the form is a plain POST and the answer a whole page.
 * Kept out: a filled honeypot field; more than `enquiryLimit` attempts per client IP per hour
 * (in the database); and a form sent sooner than `minimumFillMs` after a time this server
 * signed. With JavaScript the page's script fetches that time (`formTimeToken`, from
 * /api/enquiry-time) when the visitor first touches the form and sends it back as `formTime`;
 * the cached page itself cannot carry one. Without it the first POST answers a "check your
 * details" step carrying a signed time, and the enquiry is stored only when that step is sent
 * back, at least `minimumFillMs` later.
 */

/** Attempts one client IP may make in an hour: a family or an office sharing an address. */
export const enquiryLimit: Limit = { max: 10, windowMs: 3_600_000 };

/** How long a signed time (the form's or the check step's) stays good. */
const signedTimeMs = 3_600_000;

/** The honeypot: a field people never see. Bots fill in every field they find, this one too. */
export const honeypotField = "website";

/** The page's answer, which the form shows (useActionData). */
export type EnquiryAnswer =
  | { form: "enquiry"; step: "sent"; message: string }
  | { form: "enquiry"; step: "check"; message: string; values: Record<EnquiryField, string>; token: string }
  | {
      form: "enquiry";
      step: "form";
      message: string;
      values: Record<EnquiryField, string>;
      errors: Partial<Record<EnquiryField, string>>;
    };

const answer = (status: number, body: EnquiryAnswer) =>
  data(body, { status, headers: { "Cache-Control": "private, no-store" } });

/** The longest value read from any field, before any rule looks at it. */
const maxFieldLength = 4_000;

function readValues(form: FormData): Record<EnquiryField, string> {
  const value = (name: string) => {
    const raw = form.get(name);
    return typeof raw === "string" ? raw.slice(0, maxFieldLength) : "";
  };
  return Object.fromEntries(enquiryFieldNames.map((name) => [name, value(name)])) as Record<EnquiryField, string>;
}

const tokenKey = (linkKey: Buffer) => createHmac("sha256", linkKey).update("upskill enquiry check step").digest();

const sign = (key: Buffer, issuedAt: number, values: Record<EnquiryField, string>) =>
  createHmac("sha256", key)
    .update(`${issuedAt}\n${JSON.stringify(enquiryFieldNames.map((name) => values[name]))}`)
    .digest("base64url");

/** The check step's token: when it was issued, signed together with the values it showed. */
export function checkToken(key: Buffer, values: Record<EnquiryField, string>, now = Date.now()): string {
  return `${now}.${sign(tokenKey(key), now, values)}`;
}

/** When a token for exactly these values was issued, or null when it is not one of ours. */
function tokenIssuedAt(key: Buffer, token: string, values: Record<EnquiryField, string>): number | null {
  return signedTime(token, (issuedAt) => sign(tokenKey(key), issuedAt, values));
}

/** A different key, so that neither kind of token passes for the other. */
const formTimeKey = (linkKey: Buffer) => createHmac("sha256", linkKey).update("upskill enquiry form time").digest();

const signFormTime = (key: Buffer, issuedAt: number) =>
  createHmac("sha256", formTimeKey(key)).update(String(issuedAt)).digest("base64url");

/** The time the script fetches when the visitor first touches the form: `<ms>.<HMAC>`. */
export function formTimeToken(key: Buffer, now = Date.now()): string {
  return `${now}.${signFormTime(key, now)}`;
}

/** `<ms>.<signature>` read back: the time, when the signature is the one `signature` makes for it. */
function signedTime(token: string, signature: (issuedAt: number) => string): number | null {
  if (token.length > 100) return null;
  const match = /^(\d{13})\.([\w-]{43})$/.exec(token);
  if (!match) return null;
  const issuedAt = Number(match[1]);
  const expected = Buffer.from(signature(issuedAt));
  const given = Buffer.from(match[2]!);
  return expected.length === given.length && timingSafeEqual(expected, given) ? issuedAt : null;
}

/** A signed time still good now: not from the future, not older than `signedTimeMs`. */
const current = (issuedAt: number | null, now: number) =>
  issuedAt !== null && issuedAt <= now && now - issuedAt <= signedTimeMs ? issuedAt : null;

export async function enquiryAction(request: Request, form: FormData) {
  const { database, bus, unsubscribeKey, config } = await getServices();
  const values = readValues(form);
  const refused = (status: number, message: string) =>
    answer(status, { form: "enquiry", step: "form", message, values, errors: {} });

  const honeypot = form.get(honeypotField);
  if (typeof honeypot !== "string" || honeypot !== "") return refused(400, enquiryMessages.refused);

  const address = request.headers.get(CLIENT_IP_HEADER) ?? "unknown";
  if (!(await consumeAttempt(database.db, `enquiry:${address}`, enquiryLimit))) {
    return refused(429, enquiryMessages.tooMany);
  }

  // "Change details" on the check step: the form again, filled in.
  if (form.get("step") === "edit")
    return answer(200, { form: "enquiry", step: "form", message: "", values, errors: {} });

  const parsed = enquirySchema(await enquiryCourses(database.db, config.paymentUrl)).safeParse(values);
  if (!parsed.success) {
    const errors: Partial<Record<EnquiryField, string>> = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as EnquiryField;
      errors[field] ??= issue.message;
    }
    return answer(400, { form: "enquiry", step: "form", message: enquiryMessages.fixFields, values, errors });
  }

  const now = Date.now();
  const formTime = form.get("formTime");
  const formShownAt = current(
    typeof formTime === "string" ? signedTime(formTime, (issuedAt) => signFormTime(unsubscribeKey, issuedAt)) : null,
    now,
  );
  const token = form.get("token");
  const checkedAt = current(typeof token === "string" ? tokenIssuedAt(unsubscribeKey, token, values) : null, now);
  const startedAt = formShownAt ?? checkedAt;
  if (startedAt === null) {
    // Without JavaScript (or a changed form, or a time that is not ours): show the details to
    // check, with a signed time.
    return answer(200, {
      form: "enquiry",
      step: "check",
      message: enquiryMessages.check,
      values,
      token: checkToken(unsubscribeKey, values, now),
    });
  }
  if (now - startedAt < minimumFillMs) return refused(400, enquiryMessages.tooFast);

  await storeEnquiry({ db: database.db, bus }, parsed.data);
  return answer(200, { form: "enquiry", step: "sent", message: enquiryMessages.sent(parsed.data.name) });
}

/** Reads an action's form and says whether it is the enquiry form's (`intent=enquiry`). */
export async function readEnquiryForm(request: Request): Promise<FormData | null> {
  const type = request.headers.get("content-type") ?? "";
  if (!type.startsWith("application/x-www-form-urlencoded") && !type.startsWith("multipart/form-data")) return null;
  let form: FormData;
  try {
    form = await request.clone().formData();
  } catch {
    return null;
  }
  return form.get("intent") === "enquiry" ? form : null;
}
