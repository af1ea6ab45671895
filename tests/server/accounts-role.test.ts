import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { describeRoleChange, parseRoleArgument, setRole } from "~/accounts/roles.server";
import { openDatabase } from "~/db/database.server";
import { migrateToLatest } from "~/db/migrate.server";
import type { Db } from "~/db/database.server";
import { describeEachDatabase, insertUser, type TestDatabaseHandle } from "../support/databases";

const root = path.resolve(import.meta.dirname, "..", "..");

const addUser = (db: Db, email: string, role: string | null = null) => insertUser(db, { name: "Ravi", email, role });

const roleOf = async (db: Db, email: string) =>
  (await db.selectFrom("user").select("role").where("email", "=", email).executeTakeFirstOrThrow()).role;

/** Runs `npm run role -- …`'s command, as an operator would. */
function runRoleCommand(args: string[], env: Record<string, string>) {
  const result = spawnSync(process.execPath, ["scripts/role.ts", ...args], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: "silent", ...env },
    encoding: "utf8",
    timeout: 30_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describeEachDatabase("accounts: roles", (database) => {
  let handle: TestDatabaseHandle;
  beforeEach(async () => {
    handle = await database.open();
  });
  afterEach(async () => {
    await handle.dispose();
  });

  it("sets, changes and clears a role, saying what changed", async () => {
    await addUser(handle.db, "ravi@example.com");
    const made = await setRole(handle.db, "  Ravi@Example.com ", "admin");
    expect(made).toMatchObject({ status: "changed", from: null, to: "admin" });
    expect(describeRoleChange(made)).toBe("ravi@example.com (ravi): role none (learner) -> admin.");
    expect(await roleOf(handle.db, "ravi@example.com")).toBe("admin");

    expect(await setRole(handle.db, "ravi@example.com", "admin")).toMatchObject({ status: "unchanged" });
    expect(await setRole(handle.db, "ravi@example.com", "mentor")).toMatchObject({ from: "admin", to: "mentor" });
    expect(await setRole(handle.db, "ravi@example.com", parseRoleArgument("none"))).toMatchObject({
      status: "changed",
      to: null,
    });
    expect(await roleOf(handle.db, "ravi@example.com")).toBeNull();
  });

  it("reports an unknown email and changes nothing", async () => {
    await addUser(handle.db, "ravi@example.com", "admin");
    const change = await setRole(handle.db, "nobody@example.com", "admin");
    expect(change).toEqual({ status: "unknown-email", email: "nobody@example.com" });
    expect(describeRoleChange(change)).toMatch(/No account has the email nobody@example.com/);
    expect(await roleOf(handle.db, "ravi@example.com")).toBe("admin");
  });
});

describe("accounts: the role command", () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "upskill-role-"));
  });
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it("sets the role on the configured SQLite database, and exits non-zero for an unknown email", async () => {
    const handle = await openDatabase({ dataDir });
    await migrateToLatest(handle.db);
    await addUser(handle.db, "ravi@example.com");
    await handle.close();

    const made = runRoleCommand(["ravi@example.com", "admin"], { DATA_DIR: dataDir });
    expect(made.stderr).toBe("");
    const target = `Setting the role in the database at ${path.join(dataDir, "upskill.sqlite")}\n`;
    expect(made).toMatchObject({
      status: 0,
      stdout: `${target}ravi@example.com (ravi): role none (learner) -> admin.\n`,
    });

    const unknown = runRoleCommand(["ghost@example.com", "admin"], { DATA_DIR: dataDir });
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain("No account has the email ghost@example.com");

    const cleared = runRoleCommand(["ravi@example.com", "none"], { DATA_DIR: dataDir });
    expect(cleared).toMatchObject({
      status: 0,
      stdout: `${target}ravi@example.com (ravi): role admin -> none (learner).\n`,
    });

    expect(runRoleCommand(["ravi@example.com"], { DATA_DIR: dataDir }).status).toBe(2);
    expect(runRoleCommand(["ravi@example.com", "two words"], { DATA_DIR: dataDir }).status).toBe(2);

    const reopened = await openDatabase({ dataDir });
    expect(await roleOf(reopened.db, "ravi@example.com")).toBeNull();
    await reopened.close();
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)("sets the role on the configured PostgreSQL database", async () => {
    const url = process.env.TEST_DATABASE_URL!;
    const schema = `test_role_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
    const handle = await openDatabase({ databaseUrl: url, dataDir, schema });
    try {
      await migrateToLatest(handle.db);
      await addUser(handle.db, "ravi@example.com");
      const databaseUrl = `${url}${url.includes("?") ? "&" : "?"}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
      const made = runRoleCommand(["ravi@example.com", "admin"], { DATA_DIR: dataDir, DATABASE_URL: databaseUrl });
      expect(made.status).toBe(0);
      const [target, change] = made.stdout.split("\n");
      const withoutPassword = new URL(url);
      withoutPassword.password = "";
      expect(target).toContain(`Setting the role in the database at ${withoutPassword.toString()}`);
      if (new URL(url).password) expect(made.stdout).not.toContain(new URL(url).password);
      expect(change).toBe("ravi@example.com (ravi): role none (learner) -> admin.");
      expect(await roleOf(handle.db, "ravi@example.com")).toBe("admin");
    } finally {
      await handle.close();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    }
  });
});
