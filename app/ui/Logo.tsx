import logoUrl from "./assets/logo.svg";
/** The institute's mark and name; the SVG is self-hosted and sized up front so nothing shifts. */
export function Logo({ name, nameClassName = "" }: { name: string; nameClassName?: string }) {
  return (
    <span className="inline-flex shrink-0 items-center gap-2">
      <img src={logoUrl} alt="" width={36} height={36} className="size-9" />
      <span className={`text-xl font-extrabold tracking-tight text-slate-900 ${nameClassName}`}>{name}</span>
    </span>
  );
}
