import type { z } from "zod";
import type { Limit } from "~/security/rate-limit.server";
import type { Deps } from "./deps";
import type { Actor } from "./people";
import type { ActionResult } from "./result";

/** Who may run a staff intent: every staff member, or admins only. */
export type IntentNeed = "staff" | "admin";

interface IntentDefinition<S extends z.ZodType, D> {
  need: IntentNeed;
  /** The form's fields. */
  fields: S;
  /** A stricter limit of its own, on top of every staff member's budget of changes. */
  ownLimit?: Limit;
  /** What a staff member (not admin) is told instead of the general refusal. */
  staffRefusal?: (input: z.infer<S>) => string;
  /** A property, not a method: so that what it needs is checked, not taken as read (method parameters are bivariant). */
  run: (deps: D, actor: Actor, input: z.infer<S>) => Promise<ActionResult<object>>;
}

/** An intent with its form read: refused, or ready to run. */
export type PreparedIntent<D> =
  | { ok: false; message: string }
  | { ok: true; staffRefusal?: string; run: (deps: D, actor: Actor) => Promise<ActionResult<object>> };

/** One staff action as the staff gate runs it, with `D` what its function needs passed in. */
export interface StaffIntent<D = Deps> {
  need: IntentNeed;
  ownLimit?: Limit;
  prepare: (fields: Record<string, string>) => PreparedIntent<D>;
}

/**
 * Declares a staff action: who may, its fields' schema, its own limit, and the function the
 * parsed fields go to. A feature lists its intents in its own table; the staff gate combines them.
 */
export function intent<S extends z.ZodType, D = Deps>(definition: IntentDefinition<S, D>): StaffIntent<D> {
  return {
    need: definition.need,
    ownLimit: definition.ownLimit,
    prepare(fields) {
      const parsed = definition.fields.safeParse(fields);
      if (!parsed.success) return { ok: false, message: parsed.error.issues[0]?.message ?? "Invalid request." };
      return {
        ok: true,
        staffRefusal: definition.staffRefusal?.(parsed.data),
        run: (deps, actor) => definition.run(deps, actor, parsed.data),
      };
    },
  };
}
