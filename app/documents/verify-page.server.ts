import { data, redirect } from "react-router";
import { CLIENT_IP_HEADER } from "~/http/request-context";
import { todayIn } from "~/core/dates";
import { getServices } from "~/platform/services.server";
import { normalizeCode } from "./code";
import { documentState, expiry, replyState } from "./status";
import { verifyMessages } from "./verify-messages";
import { verifyDocument, wrongGuessLimit } from "./verify.server";

/**
 * /verify/<code>: the document and its state today. A code typed another way (lower case,
 * without dashes) is sent to its printed form; an unknown code is a 404, too many of them a 429.
 */
export async function loadVerifyPage(request: Request, typed: string) {
  const code = normalizeCode(typed);
  if (code === null) throw data({ message: verifyMessages.notFound }, { status: 404 });
  if (code !== typed) throw redirect(`/verify/${code}`, 301);
  const { database, config } = await getServices();
  const address = request.headers.get(CLIENT_IP_HEADER) ?? "unknown";
  const outcome = await verifyDocument(database.db, code, address);
  if (!outcome.found) {
    if (outcome.reason === "too-many") {
      throw data(
        { message: verifyMessages.tooManyGuesses },
        { status: 429, headers: { "Retry-After": String(wrongGuessLimit.windowMs / 1000) } },
      );
    }
    throw data({ message: verifyMessages.notFound }, { status: 404 });
  }
  const { document } = outcome;
  const today = todayIn(config.instituteTimeZone);
  return {
    document,
    state: documentState(document, today),
    expiry: expiry(document, today),
    reply: document.kind === "offer-letter" ? replyState(document, today) : null,
    timeZone: config.instituteTimeZone,
  };
}

/** /verify?code=…: the typed code's page, or what is wrong with it. */
export function verifyCodeFromForm(request: Request) {
  const typed = new URL(request.url).searchParams.get("code");
  if (typed === null) return { typed: "", problem: null };
  if (typed.trim() === "") return { typed: "", problem: verifyMessages.noCode };
  const code = normalizeCode(typed);
  if (code === null) return { typed: typed.slice(0, 64), problem: verifyMessages.notACode };
  throw redirect(`/verify/${code}`);
}
