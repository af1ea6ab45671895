import type { Config } from "~/config/config.server";
import type { Institute } from "~/core/institute";
import type { Db } from "~/db/database.server";
import { compiledOnce } from "~/db/compiled-once.server";
import { brandFromConfig } from "./section-defaults.server";
import type { Brand } from "./section-types";

// The stored brand as documents and mail read it, apart from the section editor so that the
// features that issue PDFs and write emails import only this.

// Read by every page's render (the root loader): compiled once (compiledOnce), not per request.
const sectionRow = compiledOnce((db: Db, key: string) =>
  db.selectFrom("site_section").select("published").where("key", "=", key),
);

/** The brand visitors see: the one stored at first start, or as admins published it since. */
export async function publishedBrand(db: Db, site: Config["site"]): Promise<Brand> {
  const [row] = await sectionRow(db, "brand");
  return row?.published ? (JSON.parse(row.published) as Brand) : brandFromConfig(site);
}

/** The institute's name, contact and logo as published now (the SITE_* variables only until a first start stored them). */
export async function currentInstitute(db: Db, site: Config["site"]): Promise<Institute> {
  const brand = await publishedBrand(db, site);
  return {
    name: brand.name,
    email: brand.email,
    phone: brand.phone,
    address: brand.address,
    logoPng: brand.logo?.png ?? null,
  };
}

/** The stored logo's PNG bytes, for a PDF; null when there is none (or it is gone). */
export async function instituteLogoBytes(db: Db, institute: Institute): Promise<Buffer | null> {
  const name = institute.logoPng?.split("/").pop();
  if (!name) return null;
  const row = await db.selectFrom("site_image").select("data").where("name", "=", name).executeTakeFirst();
  return row ? Buffer.from(row.data, "base64") : null;
}
