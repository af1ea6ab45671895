import type { ReactNode } from "react";
import type { z } from "zod";
import { LostChange } from "./LostChange";
import { useAction, type ActionHandle, type IntentName } from "./use-action";

/**
 * A form that posts its `intent` to the page's action (or another route's, `action`) through
 * `useAction`: in place once the page's script runs (the answer in the toast region, the
 * fields cleared on success), as a plain POST before that.
 */
export function ActionForm({
  intent,
  children,
  className,
  withFile = false,
  label,
  action: route,
  submitWith,
  schema,
  resetOnSuccess = true,
}: {
  intent: IntentName;
  children: ReactNode;
  className?: string;
  /** The form carries a file (sent as multipart). */
  withFile?: boolean;
  /** The form's accessible name, when the page holds several of its kind. */
  label?: string;
  /** Another route whose action takes this intent (its loaders' data is reloaded all the same). */
  action?: string;
  /**
   * The action hook of a component that outlives this form: a form that goes away with the
   * change it makes (an agreement accepted) would otherwise go before it could tell the answer.
   */
  submitWith?: ActionHandle;
  /** The intent's schema, checked before the form is sent (see `useAction`). */
  schema?: z.ZodType;
  /** Empty the fields after a success (an adding form); false for a form that edits what is shown. */
  resetOnSuccess?: boolean;
}) {
  const own = useAction();
  const action = submitWith ?? own;
  return (
    <form
      method="post"
      action={route}
      encType={withFile ? "multipart/form-data" : undefined}
      className={className}
      aria-label={label}
      aria-busy={action.busy}
      onSubmit={(event) => {
        event.preventDefault();
        const form = event.currentTarget;
        action.submit(new FormData(form), {
          action: route,
          schema,
          onDone: (answer) => {
            if (answer.ok && resetOnSuccess) form.reset();
          },
        });
      }}
    >
      <input type="hidden" name="intent" value={intent} />
      {children}
      <LostChange action={action} className="mt-2 basis-full" />
    </form>
  );
}
