/** Marks the page sign-in goes to with no page to return to: / then sends each person to their own start. */
export const signedInParam = "signed-in";
export const signedInLanding = `/?${signedInParam}`;
