/** Shared class lists, so buttons and cards look the same on every page. */
export const primaryButton =
  "inline-flex items-center justify-center rounded-md bg-brand px-5 py-2.5 font-semibold text-white shadow-sm hover:bg-brand-dark";

export const secondaryButton =
  "inline-flex items-center justify-center rounded-md border border-brand bg-white px-5 py-2.5 font-semibold text-brand hover:bg-blue-50";

/** The Yes of a confirmation that deletes something. */
export const dangerButton =
  "inline-flex items-center justify-center rounded-md bg-red-700 px-5 py-2.5 font-semibold text-white shadow-sm hover:bg-red-800";

export const card = "rounded-xl border border-slate-200 bg-white p-6 shadow-sm";

/** Sections sit below the sticky top bar, so in-page links stop short of it. */
export const section = "scroll-mt-20 px-4 py-12 sm:py-20";

export const container = "mx-auto max-w-6xl";

/**
 * A message's sanitized HTML as learners see it (and staff, on the learner's page). Paragraphs,
 * lists, quotes and headings are spaced apart (Tailwind's reset removes every margin), long
 * words and links wrap, and wide tables and code scroll on their own rather than widen the page.
 */
export const messageBody = [
  "leading-relaxed text-slate-900 [overflow-wrap:anywhere]",
  "[&>:first-child]:mt-0 [&>:last-child]:mb-0",
  "[&_p]:my-3 [&_ul]:my-3 [&_ol]:my-3 [&_li]:my-1 [&_blockquote]:my-3 [&_pre]:my-3 [&_hr]:my-4 [&_table]:my-3",
  "[&_h1]:mt-5 [&_h1]:mb-2 [&_h1]:text-2xl [&_h1]:font-bold [&_h2]:mt-5 [&_h2]:mb-2 [&_h2]:text-xl [&_h2]:font-bold",
  "[&_h3]:mt-4 [&_h3]:mb-2 [&_h3]:text-lg [&_h3]:font-semibold [&_h4]:mt-4 [&_h4]:mb-1 [&_h4]:font-semibold",
  "[&_a]:text-blue-800 [&_a]:underline [&_blockquote]:border-l-4 [&_blockquote]:border-slate-300 [&_blockquote]:pl-3",
  "[&_ol]:list-decimal [&_ol]:pl-6 [&_ul]:list-disc [&_ul]:pl-6",
  "[&_pre]:overflow-x-auto [&_pre]:rounded [&_pre]:bg-slate-100 [&_pre]:p-3 [&_pre]:[overflow-wrap:normal]",
  "[&_table]:block [&_table]:max-w-full [&_table]:overflow-x-auto [&_td]:border [&_td]:border-slate-300 [&_td]:px-2 [&_td]:py-1",
  "[&_th]:border [&_th]:border-slate-300 [&_th]:px-2 [&_th]:py-1 [&_th]:text-left",
].join(" ");
