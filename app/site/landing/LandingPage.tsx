import { ContactBlock } from "~/site/ContactBlock";
import { useSiteInfo } from "~/site/use-site-info";
import { container } from "~/ui/styles";
import { ProofBlock } from "./ProofBlock";
import { TopBar } from "./TopBar";
import { useLandingContent } from "./use-landing-content";
import { AdvantageSection, CoursesSection, FeaturesSection, ServicesSection, WelcomeHeader } from "./sections";

export interface LandingPageProps {
  /** Rendered in the top bar at every width, after the menu (the "Log in" and "Sign up" buttons). */
  accountAction?: React.ReactNode;
}

/**
 * The public landing page an anonymous visitor sees at /. Its copy comes from the home route's
 * loader: return `{ ...(await landingLoaderData()) }` (landing-page.server.ts) from that loader.
 */
export function LandingPage({ accountAction }: LandingPageProps) {
  const { site, year } = useSiteInfo();
  const { aboutUs, contactUs } = useLandingContent();
  return (
    <>
      <TopBar accountAction={accountAction} />
      <main id="main" tabIndex={-1}>
        <WelcomeHeader />
        <ServicesSection />
        <FeaturesSection />
        <AdvantageSection />
        <CoursesSection />
        <ProofBlock />
      </main>
      <footer id="contact" className="scroll-mt-16 border-t border-slate-200 bg-white px-4 pt-16 pb-8">
        <div className={container}>
          <ContactBlock aboutUs={aboutUs} contactUs={contactUs} />
          <p className="mt-12 border-t border-slate-200 pt-6 text-center text-sm text-slate-600">
            © {year} {site.name}. All rights reserved.
          </p>
        </div>
      </footer>
    </>
  );
}
