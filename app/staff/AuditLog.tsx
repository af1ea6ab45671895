import { auditActionNames } from "~/core/audit-actions";
import type { AuditEntry } from "~/core/audit-actions";
import { StaffSubpageHeading } from "~/ui/StaffSubpageHeading";
import { formatDateTime } from "~/core/dates";

/** The latest 200 staff actions, newest first (admins only). */
export function AuditLog({ entries, timeZone }: { entries: AuditEntry[]; timeZone: string }) {
  return (
    <>
      <StaffSubpageHeading title="Audit Log" />
      {entries.length === 0 ? (
        <p className="mt-6 text-slate-700">No staff actions yet.</p>
      ) : (
        <div className="mt-6 overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead>
              <tr className="border-b border-slate-200">
                <th className="py-2 pr-4">When</th>
                <th className="py-2 pr-4">Who</th>
                <th className="py-2 pr-4">What</th>
                <th className="py-2 pr-4">To whom</th>
                <th className="py-2">Count</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.id} className="border-b border-slate-100">
                  <td className="py-2 pr-4 whitespace-nowrap">{formatDateTime(entry.createdAt, timeZone)}</td>
                  <td className="py-2 pr-4">{entry.actorName}</td>
                  <td className="py-2 pr-4">
                    {auditActionNames[entry.action]}
                    {entry.detail ? ` (${entry.detail})` : ""}
                  </td>
                  <td className="py-2 pr-4">{entry.target}</td>
                  <td className="py-2">{entry.count}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
