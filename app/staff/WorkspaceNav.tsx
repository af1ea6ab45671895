import { Link, useNavigate } from "react-router";
import { secondaryButton } from "~/ui/styles";

/** The workspace's title and its way to every other staff page (admins see theirs too). */
export function WorkspaceNav({ isAdmin, filterQuery }: { isAdmin: boolean; filterQuery: string }) {
  const navigate = useNavigate();
  const adminLinks: [string, string][] = [
    ["/staff/import", "Import learners"],
    ["/staff/audit", "Audit Log"],
    ["/staff/documents", "Document settings"],
    ["/staff/site", "Public site"],
    ["/staff/courses", "Courses"],
  ];
  return (
    <div className="flex flex-wrap items-center justify-between gap-4">
      <h1 className="text-3xl font-bold text-slate-900">Admin Dashboard</h1>
      <div className="flex flex-wrap gap-3">
        <Link to="/staff/people" className={secondaryButton}>
          People and roles
        </Link>
        <Link to="/staff/batches" className={secondaryButton}>
          Batches
        </Link>
        <Link to="/staff/reviews" className={secondaryButton}>
          Reviews
        </Link>
        <Link to="/staff/placement" className={secondaryButton}>
          Placement
        </Link>
        <Link to="/staff/outcomes" className={secondaryButton}>
          Placement outcomes
        </Link>
        <Link to="/staff/fees" className={secondaryButton}>
          Fees receivable
        </Link>
        {/* A download, not a page: the browser fetches it itself. */}
        <a href={`/staff/learners.csv${filterQuery ? `?${filterQuery}` : ""}`} download className={secondaryButton}>
          Export CSV
        </a>
        {isAdmin &&
          adminLinks.map(([to, label]) => (
            <Link key={to} to={to} className={secondaryButton}>
              {label}
            </Link>
          ))}
        <button type="button" className={secondaryButton} onClick={() => void navigate("/dashboard")}>
          User DashBoard
        </button>
      </div>
    </div>
  );
}
