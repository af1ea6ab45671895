import { formTimeToken } from "~/enquiries/enquiry-form-page.server";
import { getServices } from "~/platform/services.server";

/**
 * A signed "the form was touched now", fetched by the public pages' script (app/site/enhance.ts)
 * and sent back with the enquiry: the cached pages cannot carry a per-visitor time themselves.
 */
export async function loader() {
  const { unsubscribeKey } = await getServices();
  return Response.json({ formTime: formTimeToken(unsubscribeKey) }, { headers: { "Cache-Control": "no-store" } });
}
