import { profileFieldNames, type ProfileField, type SignUpField } from "./sign-up-schema";

export type AuthMode = "login" | "signup" | "forgot";

/** What is typed in the auth modal. Kept above its three forms, so switching keeps the email and password. */
export type AuthEntries = Record<SignUpField, string>;

export const noAuthEntries: AuthEntries = {
  ...(Object.fromEntries(profileFieldNames.map((name) => [name, ""])) as Record<ProfileField, string>),
  email: "",
  password: "",
  confirmPassword: "",
};

/** What each of the modal's forms is given. */
export interface AuthFormProps {
  entries: AuthEntries;
  setEntry(field: SignUpField, value: string): void;
  onModeChange(mode: AuthMode): void;
}
