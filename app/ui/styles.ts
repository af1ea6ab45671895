/** Shared class lists, so buttons and cards look the same on every page. */
export const primaryButton =
  "inline-flex items-center justify-center rounded-md bg-blue-800 px-5 py-2.5 font-semibold text-white shadow-sm hover:bg-blue-900";

export const secondaryButton =
  "inline-flex items-center justify-center rounded-md border border-blue-800 bg-white px-5 py-2.5 font-semibold text-blue-800 hover:bg-blue-50";

/** The Yes of a confirmation that deletes something. */
export const dangerButton =
  "inline-flex items-center justify-center rounded-md bg-red-700 px-5 py-2.5 font-semibold text-white shadow-sm hover:bg-red-800";

export const card = "rounded-xl border border-slate-200 bg-white p-6 shadow-sm";

/** Sections sit below the sticky top bar, so in-page links stop short of it. */
export const section = "scroll-mt-20 px-4 py-16 sm:py-20";

export const container = "mx-auto max-w-6xl";

/** A message's sanitized HTML as learners see it (and staff, on the learner's page). */
export const messageBody =
  "text-slate-900 [&_a]:text-blue-800 [&_a]:underline [&_blockquote]:border-l-4 [&_blockquote]:pl-3 [&_h1]:text-2xl [&_h1]:font-bold [&_h2]:text-xl [&_h2]:font-bold [&_h3]:text-lg [&_h3]:font-semibold [&_ol]:list-decimal [&_ol]:pl-6 [&_p]:my-1 [&_pre]:overflow-x-auto [&_ul]:list-disc [&_ul]:pl-6";
