import type { Route } from "./+types/staff.site.preview";
import { LandingPage } from "~/site/landing/LandingPage";
import { PreviewBar } from "~/site/sections/PreviewBar";
import { PolicyPage } from "~/site/sections/PolicyPage";
import { loadPreview } from "~/site/sections/preview-page.server";
import { signedInMeta } from "~/site/seo";
import { ToastProvider } from "~/ui/toast";

export const meta: Route.MetaFunction = ({ matches }) => signedInMeta(matches, "Preview of the public site");

/** The drafts as visitors will see them once published (admins only). */
export async function loader({ request }: Route.LoaderArgs) {
  return loadPreview(request);
}

export default function SitePreviewRoute({ loaderData }: Route.ComponentProps) {
  // The page as visitors see it (no staff header), with the toasts Publish answers in.
  return (
    <ToastProvider>
      <PreviewBar page={loaderData.page} drafts={loaderData.drafts} />
      {loaderData.policy ? (
        <PolicyPage title={loaderData.policy.title} policy={loaderData.policy.section} />
      ) : (
        <LandingPage />
      )}
    </ToastProvider>
  );
}
