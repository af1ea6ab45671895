import { useId } from "react";
import { Form, Link } from "react-router";
import { Field } from "~/ui/form";
import { primaryButton } from "~/ui/styles";
import { RoleChange } from "./RoleChange";
import { InviteStaffForm } from "~/accounts/InviteStaffForm";
import type { loadPeople } from "./staff-page.server";
import { StaffSubpageHeading } from "~/ui/StaffSubpageHeading";
import { formatDateTime } from "~/core/dates";

type PeopleData = Awaited<ReturnType<typeof loadPeople>>;

/**
 * Everyone with a role: staff see who they are; admins change a role here, including back to
 * learner (a learner made staff by mistake is found here, not in the learner list).
 */
export function PeoplePage({ data }: { data: PeopleData }) {
  const { people, roles, q, user, timeZone } = data;
  const isAdmin = user.level === "admin";
  const ids = useId();
  return (
    <>
      <StaffSubpageHeading title="People and roles" />
      {isAdmin && <InviteStaffForm />}
      <Form method="get" role="search" className="mt-6 flex max-w-xl flex-wrap items-end gap-3">
        <Field
          className="min-w-56 flex-1"
          id={`${ids}-q`}
          name="q"
          type="search"
          label="Search by name or email"
          defaultValue={q}
        />
        <button type="submit" className={primaryButton}>
          Search
        </button>
      </Form>
      {people.length === 0 ? (
        <div className="mt-6 rounded-xl border border-slate-200 bg-white p-4">
          <p className="text-slate-900">
            {q ? `No one with a role has a name or email containing "${q}".` : "No one has a role yet."}
          </p>
          {q && (
            <Link to="/staff/people" className="mt-2 inline-block font-semibold text-blue-800 underline">
              Clear the search
            </Link>
          )}
        </div>
      ) : (
        <ul className="mt-6 space-y-3">
          {people.map((person) => (
            <li
              key={person.id}
              className="flex flex-wrap items-end justify-between gap-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
              data-testid="person"
            >
              <div className="min-w-0">
                <p className="font-semibold text-slate-900">
                  {person.name}
                  {person.id === user.id && <span className="font-normal text-slate-700"> (you)</span>}
                </p>
                <p className="text-sm break-all text-slate-700">{person.email}</p>
                <p className="mt-1 text-sm text-slate-700">
                  <span className="font-semibold text-slate-900">{person.role}</span> since{" "}
                  {formatDateTime(person.since, timeZone)}
                </p>
              </div>
              {isAdmin && person.id !== user.id && (
                <RoleChange
                  key={`${person.id}:${person.role}`}
                  userId={person.id}
                  current={person.role}
                  roles={roles}
                  who={person.name}
                />
              )}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
