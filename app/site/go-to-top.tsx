import { useEffect, useState } from "react";

/** True when the page is scrolled to (within a few pixels of) its bottom. */
function atBottom(): boolean {
  const doc = document.documentElement;
  return window.innerHeight + window.scrollY >= doc.scrollHeight - 4;
}

/** Appears only when the page is scrolled to the bottom; scrolls smoothly back to the top. */
export function GoToTop() {
  const [visible, setVisible] = useState(false);

  useEffect(() => {
    let frame = 0;
    const update = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => setVisible(atBottom() && window.scrollY > 0));
    };
    update();
    window.addEventListener("scroll", update, { passive: true });
    window.addEventListener("resize", update);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener("scroll", update);
      window.removeEventListener("resize", update);
    };
  }, []);

  if (!visible) return null;
  return (
    <button
      type="button"
      onClick={() => {
        const reduce = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
        window.scrollTo({ top: 0, behavior: reduce ? "auto" : "smooth" });
        document.getElementById("main")?.focus({ preventScroll: true });
      }}
      className="fixed right-4 bottom-4 z-40 rounded-full [body:has([data-bottom-bar])_&]:bottom-20 lg:[body:has([data-bottom-bar])_&]:bottom-4 bg-blue-800 px-4 py-3 text-sm font-semibold text-white shadow-lg hover:bg-blue-900"
    >
      Go to Top
    </button>
  );
}
