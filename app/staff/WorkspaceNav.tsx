import * as Dialog from "@radix-ui/react-dialog";
import { NavLink, useNavigate } from "react-router";
import { secondaryButton } from "~/ui/styles";

interface NavItem {
  to: string;
  label: string;
  /** Admins only (the server refuses everyone else all the same). */
  admin?: boolean;
}

/**
 * Every staff page, grouped by the work it is for. (The learners' CSV is exported from the bulk
 * box beside the list, for the learners ticked or matching there.)
 */
function navGroups(): [string, NavItem[]][] {
  return [
    [
      "Learners",
      [
        { to: "/staff", label: "Learners" },
        { to: "/staff/people", label: "People and roles" },
        { to: "/staff/import", label: "Import learners", admin: true },
      ],
    ],
    [
      "Messages and reviews",
      [
        { to: "/staff/reviews", label: "Reviews" },
        { to: "/staff/audit", label: "Audit Log", admin: true },
      ],
    ],
    ["Batches", [{ to: "/staff/batches", label: "Batches" }]],
    [
      "Placement and fees",
      [
        { to: "/staff/placement", label: "Placement" },
        { to: "/staff/outcomes", label: "Placement outcomes" },
        { to: "/staff/fees", label: "Fees receivable" },
      ],
    ],
    ["Enquiries", [{ to: "/staff/enquiries", label: "Enquiries" }]],
    [
      "Site",
      [
        { to: "/staff/site", label: "Public site", admin: true },
        { to: "/staff/courses", label: "Courses", admin: true },
      ],
    ],
    ["Settings", [{ to: "/staff/documents", label: "Document settings", admin: true }]],
  ];
}

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `block rounded-md px-2 py-1.5 text-sm font-semibold ${isActive ? "bg-blue-50 text-blue-900" : "text-slate-800 hover:bg-slate-100"}`;

/** The staff pages as grouped links; a group with nothing this person may use is left out. */
function StaffLinks({ isAdmin }: { isAdmin: boolean }) {
  // Each group is named by its heading only: a list labelled by it would also answer to a
  // field's label (the search's "Batch" is part of "Batches").
  return (
    <div className="space-y-4">
      {navGroups().map(([group, items]) => {
        const shown = items.filter((item) => isAdmin || !item.admin);
        if (shown.length === 0) return null;
        return (
          <div key={group}>
            <h2 className="px-2 text-xs font-bold tracking-wide text-slate-700 uppercase">{group}</h2>
            <ul className="mt-1 space-y-0.5">
              {shown.map((item) => (
                <li key={item.label}>
                  <NavLink to={item.to} end className={linkClass}>
                    {item.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </div>
        );
      })}
    </div>
  );
}

/** The workspace's title, the spec's User DashBoard button, and (narrower screens) the Menu. */
export function WorkspaceHeading({ isAdmin }: { isAdmin: boolean }) {
  const navigate = useNavigate();
  return (
    <div className="flex flex-wrap items-center justify-between gap-4">
      <h1 className="text-3xl font-bold text-slate-900">Admin Dashboard</h1>
      <div className="flex flex-wrap gap-3">
        <Dialog.Root>
          <Dialog.Trigger className={`${secondaryButton} xl:hidden`}>Menu</Dialog.Trigger>
          <Dialog.Portal>
            <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-900/60" />
            <Dialog.Content className="fixed inset-y-0 left-0 z-50 w-72 max-w-[85vw] overflow-y-auto bg-white p-4 shadow-2xl">
              <div className="mb-4 flex items-center justify-between gap-3">
                <Dialog.Title className="text-xl font-bold text-slate-900">Staff pages</Dialog.Title>
                <Dialog.Close className={secondaryButton}>Close</Dialog.Close>
              </div>
              <Dialog.Description className="sr-only">
                Every page of the staff workspace, by the work it is for.
              </Dialog.Description>
              <nav aria-label="Staff pages">
                <StaffLinks isAdmin={isAdmin} />
              </nav>
            </Dialog.Content>
          </Dialog.Portal>
        </Dialog.Root>
        <button type="button" className={secondaryButton} onClick={() => void navigate("/dashboard")}>
          User DashBoard
        </button>
      </div>
    </div>
  );
}

/** The side navigation beside the workspace on wide screens (the Menu opens it on narrower ones). */
export function WorkspaceSideNav({ isAdmin }: { isAdmin: boolean }) {
  return (
    <nav aria-label="Staff pages" className="hidden xl:sticky xl:top-4 xl:block xl:self-start">
      <StaffLinks isAdmin={isAdmin} />
    </nav>
  );
}
