import { useRouteLoaderData } from "react-router";
import type { LandingContent } from "./landing-content.server";

/** The landing page's copy, from the home route's loader (see landingLoaderData()). */
export function useLandingContent(): LandingContent {
  const data = useRouteLoaderData("routes/home") as { landing?: LandingContent } | undefined;
  if (!data?.landing) {
    throw new Error("LandingPage needs the home loader to return { ...landingLoaderData() }");
  }
  return data.landing;
}
