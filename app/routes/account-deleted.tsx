import { Link } from "react-router";
import type { Route } from "./+types/account-deleted";
import { PageShell } from "~/site/PageShell";
import { primaryButton } from "~/ui/styles";

export const meta: Route.MetaFunction = () => [{ title: "Account deletion" }, { name: "robots", content: "noindex" }];

/** Where "Delete my account" leads: when the erasure happens, and how to stop it. */
export default function AccountDeleted() {
  return (
    <PageShell>
      <div className="mx-auto max-w-xl">
        <h1 className="text-3xl font-bold text-slate-900">Your account will be deleted</h1>
        <p className="mt-4 text-slate-800">
          You are signed out everywhere. In 7 days your account and everything in it (your profile, resume, photo,
          messages and links) will be erased. We have emailed you the date.
        </p>
        <p className="mt-4 text-slate-800">Changed your mind? Log in before then and your account stays as it is.</p>
        <Link to="/?auth=login" className={`${primaryButton} mt-6`}>
          Log in
        </Link>
      </div>
    </PageShell>
  );
}
