import logoUrl from "./assets/logo.svg";

/** An uploaded logo as the header shows it: its address and its size at 36 px tall. */
export interface LogoImage {
  src: string;
  width: number;
  height: number;
}

/**
 * The institute's mark and name: the logo an admin uploaded, or the product's own mark, sized
 * up front so nothing shifts.
 */
export function Logo({
  name,
  logo = null,
  nameClassName = "",
}: {
  name: string;
  logo?: LogoImage | null;
  nameClassName?: string;
}) {
  return (
    <span className="inline-flex shrink-0 items-center gap-2">
      {logo ? (
        <img src={logo.src} alt="" width={logo.width} height={logo.height} className="h-9 w-auto" />
      ) : (
        <img src={logoUrl} alt="" width={36} height={36} className="size-9" />
      )}
      <span className={`text-xl font-extrabold tracking-tight text-slate-900 ${nameClassName}`}>{name}</span>
    </span>
  );
}
