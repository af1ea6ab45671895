import { PageShell, PolicyBody } from "../PageShell";
import { useSiteInfo } from "../use-site-info";
import { PolicyText } from "./PolicyText";
import type { PolicySection } from "./section-types";

/** A policy page: its title, when it was last updated, and its text as admins keep it. */
export function PolicyPage({ title, policy }: { title: string; policy: PolicySection }) {
  const { site } = useSiteInfo();
  return (
    <PageShell>
      <PolicyBody title={title} updated={policy.updated}>
        <PolicyText
          body={policy.body}
          values={{ name: site.name, email: site.email, phone: site.phone, address: site.address }}
        />
      </PolicyBody>
    </PageShell>
  );
}
