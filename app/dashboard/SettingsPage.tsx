import { Link } from "react-router";
import { SignedInShell } from "~/signed-in/SignedInShell";
import { DataRights } from "./DataRights";
import { EmailSettings } from "./EmailSettings";
import { ProfileSettings } from "./ProfileSettings";
import type { SettingsData } from "./settings-page.server";

/** /settings: the person's details and password, their email choices, their data and leaving. */
export function SettingsPage({ data }: { data: SettingsData }) {
  const { settings } = data;
  return (
    <SignedInShell level={data.user.level}>
      <Link to="/dashboard" className="font-semibold text-blue-800 underline">
        Back to your dashboard
      </Link>
      <h1 className="mt-3 text-3xl font-bold text-slate-900">Settings</h1>
      <ProfileSettings profile={settings.profile} courseOptions={settings.courseOptions} />
      <EmailSettings preferences={settings.emailPreferences} digestHour={settings.digestHour} />
      <DataRights />
    </SignedInShell>
  );
}
