import { data } from "react-router";
import { requireRole } from "~/accounts/permissions.server";
import { getServices } from "~/platform/services.server";
import { idFromAddress } from "~/core/text";
import { enquiryDetail, listEnquiries } from "./enquiries.server";
import { inboxSearchSchema } from "./enquiry-fields";

/** /staff/enquiries: one page of the inbox for the URL's status, and the open enquiry whole. */
export async function loadEnquiryInbox(request: Request) {
  const user = await requireRole(request, "staff");
  const parsed = inboxSearchSchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) {
    throw data({ message: "This inbox address is not valid: choose a status from the list." }, { status: 400 });
  }
  const { status, page } = parsed.data;
  const selected = idFromAddress(parsed.data.selected);
  const { database, config } = await getServices();
  const [list, open] = await Promise.all([
    listEnquiries(database.db, { status: status ?? null, page }),
    selected ? enquiryDetail(database.db, selected) : null,
  ]);
  return {
    user: { id: user.id, level: user.level },
    status: status ?? null,
    page,
    ...list,
    selected: open,
    timeZone: config.instituteTimeZone,
  };
}
