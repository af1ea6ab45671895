/** Class lists of the account forms. */
export const linkButton = "font-semibold text-blue-800 underline underline-offset-2 hover:text-blue-900";
