import { Link } from "react-router";

const footerLinks = [
  { to: "/", label: "Home" },
  { to: "/TermsAndConditions", label: "Terms and Conditions" },
  { to: "/PrivacyPolicy", label: "Privacy Policy" },
  { to: "/RefundPolicy", label: "Refund Policy" },
] as const;

/**
 * The line of links at the foot of every page. Below 1024 px the centred links can reach the
 * right edge, so room is kept under them for Go to Top (fixed there, 60 px tall with its margin).
 */
export function FooterLinks() {
  return (
    <nav aria-label="Site" className="border-t border-slate-200 bg-slate-50">
      <ul className="mx-auto flex max-w-6xl flex-wrap items-center justify-center gap-x-6 gap-y-2 px-4 pt-5 pb-20 text-sm lg:pb-5">
        {footerLinks.map((link) => (
          <li key={link.to}>
            <Link to={link.to} className="text-slate-700 underline-offset-4 hover:text-blue-800 hover:underline">
              {link.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
