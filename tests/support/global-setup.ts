import type { TestProject } from "vitest/node";
import { createMigratedTemplate } from "./postgres-databases";

declare module "vitest" {
  export interface ProvidedContext {
    /** The migrated PostgreSQL database each test's database is copied from (empty: no PostgreSQL pass). */
    postgresTemplate: string;
  }
}

/**
 * Says once, at the top of every run, whether the PostgreSQL pass runs; for that pass, migrates
 * the database the tests' databases are copied from, and drops it at the end.
 */
export default async function setup(project: TestProject) {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    console.log("PostgreSQL pass skipped: TEST_DATABASE_URL is not set. Database tests run on SQLite only.");
    project.provide("postgresTemplate", "");
    return;
  }
  console.log(`Database tests run on SQLite and on PostgreSQL (${url.replace(/:[^:@/]*@/, ":***@")}).`);
  const template = await createMigratedTemplate(url);
  project.provide("postgresTemplate", template.name);
  return () => template.drop();
}
