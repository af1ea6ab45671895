/** Class lists of the account forms. */
export const fieldLabel = "block text-sm font-medium text-slate-800";
export const fieldInput =
  "mt-1 block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-slate-900 shadow-sm focus:border-blue-700 aria-invalid:border-red-700";
export const linkButton = "font-semibold text-blue-800 underline underline-offset-2 hover:text-blue-900";
