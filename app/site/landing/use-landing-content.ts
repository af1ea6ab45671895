import { useMatches } from "react-router";
import type { LandingPlacement } from "~/placement/outcomes-page.server";
import type { PublicProof } from "~/site/proof.server";
import type { LandingContent } from "./landing-page.server";

/** The landing page's copy, from its route's loader (see landingLoaderData()). */
export function useLandingContent(): LandingContent {
  const data = useMatches().at(-1)?.loaderData as { landing?: LandingContent } | undefined;
  if (!data?.landing) {
    throw new Error("LandingPage needs its route's loader to return { ...(await landingLoaderData()) }");
  }
  return data.landing;
}

/** Testimonials (with consent) and hiring partners, when the route's loader sent them as `proof`. */
export function useLandingProof(): PublicProof | undefined {
  return (useMatches().at(-1)?.loaderData as { proof?: PublicProof } | undefined)?.proof;
}

/** The placement figure from the public outcome records, when the route's loader sent one as `placement`. */
export function useLandingPlacement(): LandingPlacement | undefined {
  return (useMatches().at(-1)?.loaderData as { placement?: LandingPlacement } | undefined)?.placement;
}
