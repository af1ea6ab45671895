import { Link } from "react-router";

/** The top of a page reached from the staff workspace: the way back, and the page's title. */
export function StaffSubpageHeading({ title }: { title: string }) {
  return (
    <>
      <p>
        <Link to="/staff" className="font-semibold text-blue-800 underline">
          Back to the Admin Dashboard
        </Link>
      </p>
      <h1 className="mt-4 text-3xl font-bold text-slate-900">{title}</h1>
    </>
  );
}
