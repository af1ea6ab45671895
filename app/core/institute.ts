/**
 * The institute as its documents and emails name it: what admins stored at /staff/site, read
 * when a PDF is made or an email written (so a change shows in the next one, on every instance).
 */
export interface Institute {
  name: string;
  email: string;
  phone: string;
  address: string;
  /** The stored logo's PNG, by its address on this site (`/site-images/…png`); null: the product's mark. */
  logoPng: string | null;
}

/** Reads the institute's stored brand now. */
export type CurrentInstitute = () => Promise<Institute>;
