import { useContext } from "react";
import {
  Link,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  isRouteErrorResponse,
  useMatches,
  useRouteError,
  useRouteLoaderData,
} from "react-router";
import type { Route } from "./+types/root";
import { NonceContext } from "~/http/csp";
import { routePatternContext } from "~/http/request-context";
import { answerOnce } from "~/http/action-keys.server";
import { accessMessages } from "~/core/access";
import { getSessionUser, isForeignOrigin } from "~/accounts/permissions.server";
import { countNewEnquiries } from "~/enquiries/enquiries.server";
import { getServices } from "~/platform/services.server";
import { FooterLinks } from "~/site/footer-links";
import { SignedInShell } from "~/signed-in/SignedInShell";
import { enhanceScript } from "~/site/enhance";
import { GoToTop } from "~/site/go-to-top";
import { publicSiteInfo, type PublicSiteInfo } from "~/site/site-info.server";
import { publishedBrand } from "~/site/sections/institute.server";
import type { Brand } from "~/site/sections/section-types";
import { keepChangesWhenUnreachable, keepPageWhenUnreachable } from "~/ui/unreachable";
import "./app.css";

/**
 * Every state-changing request, to any route (pages' actions, uploads, auth), must come from
 * this site: a browser sends Origin on those, and another site's is refused here, once.
 */
const refuseForeignOrigins: Route.MiddlewareFunction = async ({ request }, next) => {
  if (request.method !== "GET" && request.method !== "HEAD") {
    const { config } = await getServices();
    if (isForeignOrigin(request, config.appUrl)) {
      throw Response.json(
        { message: accessMessages.foreignOrigin },
        { status: 403, headers: { "Cache-Control": "private, no-store" } },
      );
    }
  }
  return next();
};

/** Tells the HTTP server which route answered (its pattern labels the request metrics). */
const notePattern: Route.MiddlewareFunction = ({ context, pattern }, next) => {
  // Written like a path ("/staff/learners/:id"), as the cached pages' labels are.
  context.set(routePatternContext, pattern.startsWith("/") ? pattern : `/${pattern}`);
  return next();
};

export const middleware: Route.MiddlewareFunction[] = [notePattern, refuseForeignOrigins, answerOnce];

export const clientMiddleware: Route.ClientMiddlewareFunction[] = [
  keepChangesWhenUnreachable as Route.ClientMiddlewareFunction,
  keepPageWhenUnreachable as Route.ClientMiddlewareFunction,
];

export async function loader({ request }: Route.LoaderArgs): Promise<PublicSiteInfo> {
  const { config, database } = await getServices();
  const info = publicSiteInfo(config, await publishedBrand(database.db, config.site));
  // Staff see how many enquiries are new in their header; nobody else costs a query.
  const user = await getSessionUser(request);
  if (!user) return info;
  if (user.level === "learner") return { ...info, level: user.level };
  return { ...info, level: user.level, newEnquiries: await countNewEnquiries(database.db) };
}

export const links: Route.LinksFunction = () => [
  { rel: "icon", href: "/favicon.ico", sizes: "32x32" },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "apple-touch-icon", href: "/apple-touch-icon.png" },
  // The headings' typeface (app.css): early, so it is there before the first paint.
  {
    rel: "preload",
    href: "/fonts/plus-jakarta-sans-latin-wght-normal.woff2",
    as: "font",
    type: "font/woff2",
    crossOrigin: "anonymous",
  },
];

/**
 * True while the server renders a lean page: one whose route exports `handle = { lean: true }`
 * (a page with nothing interactive) or whose loader said `lean: true` (the anonymous landing
 * page). It goes out without React's scripts, as plain HTML with the small inline script, and
 * is never hydrated. In the browser (a client-side navigation) every page renders as usual,
 * and in development too, where Vite's module scripts bring hot reloading.
 */
function useLeanDocument(): boolean {
  const matches = useMatches();
  return (
    !import.meta.env.DEV &&
    typeof document === "undefined" &&
    matches.some(
      (match) =>
        (match.handle as { lean?: unknown } | undefined)?.lean === true ||
        (match.loaderData as { lean?: unknown } | undefined)?.lean === true,
    )
  );
}

/** The brand colour admins chose, in place of the product's blue (app.css's --color-brand). */
function BrandColour({ nonce }: { nonce: string | undefined }) {
  const published = (useRouteLoaderData("root") as PublicSiteInfo | undefined)?.site;
  const preview = (useMatches().at(-1)?.loaderData as { previewBrand?: Brand } | undefined)?.previewBrand;
  const colour = (preview ?? published)?.colour;
  // Checked as #rrggbb when saved; checked again here, since it goes into a style sheet.
  if (!colour || !/^#[0-9a-f]{6}$/i.test(colour)) return null;
  return <style nonce={nonce}>{`:root{--color-brand:${colour}}`}</style>;
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useContext(NonceContext);
  const lean = useLeanDocument();
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#1e3a8a" />
        <Meta />
        <Links />
        <BrandColour nonce={nonce} />
      </head>
      <body className="bg-white text-slate-900 antialiased">
        <a href="#main" className="skip-link">
          Skip to content
        </a>
        {/* At least a window tall, so the footer line sits at the bottom of a short page; room
            below it for a bar fixed to the window's foot (the staff list's compose bar on a phone). */}
        <div className="flex min-h-dvh flex-col has-[[data-bottom-bar]]:pb-20 lg:has-[[data-bottom-bar]]:pb-0">
          <div className="flex-1">{children}</div>
          <FooterLinks />
        </div>
        <GoToTop />
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: enhanceScript }} />
        {!lean && <ScrollRestoration nonce={nonce} />}
        {!lean && <Scripts nonce={nonce} />}
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  const level = (useRouteLoaderData("root") as PublicSiteInfo | undefined)?.level;
  const page = <ErrorPage />;
  // Signed in: the error is shown inside the header and navigation, so the way on stays there.
  return level ? (
    <SignedInShell level={level}>{page}</SignedInShell>
  ) : (
    <main id="main" className="mx-auto max-w-3xl px-4 py-16">
      {page}
    </main>
  );
}

function ErrorPage() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const message = isRouteErrorResponse(error) ? (error.data as { message?: unknown } | null)?.message : undefined;
  if (status === 403) {
    return (
      <>
        <h1 className="text-3xl font-bold">{accessMessages.noAccessPage}</h1>
        <p className="mt-4">
          <Link to="/dashboard" className="font-semibold text-blue-800 underline">
            Go to your dashboard
          </Link>
        </p>
      </>
    );
  }
  if (error instanceof TypeError) {
    // A page opened in the browser whose data never arrived (no network): the header stays.
    return (
      <>
        <h1 className="text-3xl font-bold">Could not reach Upskill</h1>
        <p className="mt-4 text-slate-700">Check your connection, then open the page again.</p>
      </>
    );
  }
  return (
    <>
      <h1 className="text-3xl font-bold">{status === 404 ? "NotFound" : "Something went wrong"}</h1>
      <p className="mt-4 text-slate-700">
        {typeof message === "string" && status < 500
          ? message
          : status === 404
            ? "There is no page at this address."
            : "The page could not be shown. Please try again in a moment."}
      </p>
    </>
  );
}
