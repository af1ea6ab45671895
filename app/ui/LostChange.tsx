import { useEffect } from "react";
import type { ActionHandle } from "./use-action";
import { secondaryButton } from "./styles";
import { unreachableMessage } from "./unreachable";

/**
 * Where a form says, in place, that its change did not reach Upskill (the text stays in the
 * form), with Retry, which sends the same change again. Nothing while the change is fine.
 */
export function LostChange({
  action,
  className = "",
  shown = true,
}: {
  action: ActionHandle;
  className?: string;
  /** False: the failed change is another part's to show (this one still keeps it from the toast). */
  shown?: boolean;
}) {
  const { showInPlace } = action;
  useEffect(() => {
    showInPlace(true);
    return () => showInPlace(false);
  }, [showInPlace]);
  if (!action.lost || !shown) return null;
  return (
    <p
      role="alert"
      className={`flex flex-wrap items-center gap-3 rounded-md border border-red-700 bg-red-50 p-3 font-medium text-red-800 ${className}`}
    >
      <span>{unreachableMessage}</span>
      <button type="button" className={secondaryButton} onClick={action.retry} disabled={action.busy}>
        Retry
      </button>
    </p>
  );
}
