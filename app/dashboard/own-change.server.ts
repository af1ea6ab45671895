import { authorizeChange, refuse } from "~/accounts/permissions.server";

/**
 * What a signed-in person's change to their own records starts with: the gate, then the posted
 * form with a reader of its text fields (a missing or non-text field reads as ""). The person
 * is always the signed-in user: no intent takes a user id.
 */
export async function readOwnChange(request: Request) {
  const access = await authorizeChange(request, "learner");
  if (!access.ok) return { refused: refuse(access.status, access.message) } as const;
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return { refused: refuse(400, "Send the form's fields.") } as const;
  }
  const field = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  return { user: access.user, form, field } as const;
}
