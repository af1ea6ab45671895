import { useId, useState } from "react";
import { secondaryButton } from "~/ui/styles";
import { Field } from "~/ui/form";
import { useAction } from "~/ui/use-action";
import { LostChange } from "~/ui/LostChange";

// "none" clears a role (no role can be named so); "Other…" cannot be a role name either.
const learnerChoice = "none";
const otherChoice = "Other…";

/**
 * An admin's role change: a select that starts at the current role and offers admin, staff,
 * every role in use and 'Learner (no role)'; a new role name is typed only after 'Other…'.
 * Give it a `key` with the current role, so that a change made elsewhere resets it.
 */
export function RoleChange({
  userId,
  current,
  roles,
  who,
}: {
  userId: string;
  /** The role now, "" for a learner. */
  current: string;
  roles: string[];
  /** Whose role, for the select's accessible name (one page may have several). */
  who?: string;
}) {
  const ids = useId();
  const action = useAction();
  const start = current || learnerChoice;
  const [choice, setChoice] = useState(start);
  const [typed, setTyped] = useState("");
  const other = choice === otherChoice;
  const named = [...new Set(["admin", "staff", ...roles, ...(current ? [current] : [])])];
  return (
    <div className="flex flex-wrap items-end gap-2">
      <div>
        <label htmlFor={`${ids}-role`} className="block text-sm font-semibold text-slate-900">
          Role{who && <span className="sr-only"> of {who}</span>}
        </label>
        <select
          id={`${ids}-role`}
          className="mt-1 rounded-md border border-slate-400 bg-white p-2"
          value={choice}
          onChange={(e) => setChoice(e.target.value)}
        >
          {named.map((role) => (
            <option key={role} value={role}>
              {role}
            </option>
          ))}
          <option value={learnerChoice}>Learner (no role)</option>
          <option value={otherChoice}>Other…</option>
        </select>
      </div>
      {other && (
        <Field
          id={`${ids}-new`}
          label="New role name"
          value={typed}
          maxLength={40}
          placeholder="letters, digits, - or _"
          onChange={(e) => setTyped(e.target.value)}
        />
      )}
      <button
        type="button"
        className={secondaryButton}
        disabled={action.busy || (!other && choice === start) || (other && !typed.trim())}
        onClick={() => action.submit({ intent: "change-role", userId, role: other ? typed : choice })}
      >
        Change Role
      </button>
      <LostChange action={action} className="mt-2" />
    </div>
  );
}
