/**
 * Shown only when the page is scrolled to its bottom; scrolls smoothly back to the top. The
 * inline script (enhance.ts) shows, hides and runs it, so it works on pages without React.
 */
export function GoToTop() {
  return (
    <button
      type="button"
      data-go-to-top
      hidden
      className="fixed right-4 bottom-4 z-40 rounded-full [body:has([data-bottom-bar])_&]:bottom-20 lg:[body:has([data-bottom-bar])_&]:bottom-4 bg-blue-800 px-4 py-3 text-sm font-semibold text-white shadow-lg hover:bg-blue-900"
    >
      Go to Top
    </button>
  );
}
