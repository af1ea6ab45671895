import fs from "node:fs";
import path from "node:path";
import { Writable } from "node:stream";
import { randomUUID } from "node:crypto";
import { spawnSync } from "node:child_process";
import { parse } from "csv-parse/sync";
import type { KyselyPlugin } from "kysely";
import { afterEach, beforeEach, expect, it } from "vitest";
import { completePasswordReset, resetTokenOwner } from "~/accounts/password-reset.server";
import { createLogger } from "~/logging/logger.server";
import { MailWorker } from "~/mail/mail-queue.server";
import { createMailer } from "~/mail/mailer.server";
import { staffTopic, type RealtimeEvent } from "~/realtime/events";
import type { loadImportPage } from "~/staff/import-page.server";
import {
  failedRowsResponse,
  importAction,
  importTemplateResponse,
  loadImportPage as loadImport,
} from "~/staff/import-page.server";
import { exportBatchSize, exportColumns, learnerRecords } from "~/staff/learner-export.server";
import { exportLearnersResponse } from "~/staff/learner-export-page.server";
import { parseLearnerFile } from "~/staff/learner-file.server";
import { countLearners } from "~/learners/learner-filter.server";
import { searchLearners } from "~/staff/search.server";
import { describeEachDatabase, type TestDatabaseHandle } from "../support/databases";
import { appUrl, createHarness, outcome, type Harness, type Learner } from "../support/test-app";

type ImportPageData = Awaited<ReturnType<typeof loadImportPage>>;
type Who = "anonymous" | "learner" | "staff" | "admin";

const bom = "\ufeff";
const header = "name,email,phone,course,gender";

/** A CSV download's text and its rows (header first), parsed back with csv-parse. */
async function readCsv(response: Response) {
  const bytes = new Uint8Array(await response.arrayBuffer());
  const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
  const rows = parse(text.slice(1), { relax_column_count: true }) as string[][];
  return { text, rows };
}

describeEachDatabase("learner CSV export and import", (database) => {
  let handle: TestDatabaseHandle;
  let h: Harness;
  let people: Record<Exclude<Who, "anonymous">, Learner>;
  const user = (who: Who) => (who === "anonymous" ? null : people[who]);

  beforeEach(async () => {
    handle = await database.open();
    h = await createHarness(handle);
    people = {
      learner: await h.signUp("Leena"),
      staff: await h.signUp("Suresh"),
      admin: await h.signUp("Anita"),
    };
    await h.setRole(people.staff, "mentor");
    await h.setRole(people.admin, "admin");
  });
  afterEach(async () => {
    await h.dispose();
    await handle.dispose();
  });

  const exportAs = (who: Who, query = "") =>
    exportLearnersResponse(
      new Request(`${appUrl}/staff/learners.csv${query ? `?${query}` : ""}`, {
        headers: who === "anonymous" ? {} : { cookie: user(who)!.cookie },
      }),
    );

  /** Posts the import form as this person: a file (multipart, as its bytes) or plain fields. */
  const importAs = async (who: Who, fields: Record<string, string>, file?: { name: string; content: BlobPart }) => {
    const headers: Record<string, string> = { origin: appUrl };
    if (who !== "anonymous") headers.cookie = user(who)!.cookie;
    let body: BodyInit;
    if (file) {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) form.set(name, value);
      form.set("file", new File([file.content], file.name, { type: "text/csv" }));
      // Encoded first, as a browser sends it: the action may stop reading part way.
      const encoded = new Response(form);
      headers["content-type"] = encoded.headers.get("content-type")!;
      body = new Uint8Array(await encoded.arrayBuffer());
    } else {
      body = new URLSearchParams(fields);
    }
    return outcome<{ ok: boolean; message: string }>(() =>
      importAction(new Request(`${appUrl}/staff/import`, { method: "POST", headers, body })),
    );
  };
  const dryRun = async (content: BlobPart, mode = "add", who: Who = "admin") => {
    const answer = await importAs(who, { intent: "dry-run", mode }, { name: "learners.csv", content });
    return answer;
  };
  const page = async (query: string, who: Who = "admin") =>
    outcome<ImportPageData>(() =>
      loadImport(new Request(`${appUrl}/staff/import${query}`, { headers: { cookie: user(who)!.cookie } })),
    );
  const runOf = (location: string | undefined) => new URL(location!, appUrl).searchParams.get("run")!;
  const learnerCount = async () => countLearners(handle.db, { search: "", course: "" });

  /** Learners straight into the table, newest last, with every profile field. */
  async function addLearners(
    count: number,
    make: (i: number) => Partial<{ username: string; phone: string }> = () => ({}),
  ) {
    const start = Date.parse("2024-01-01T00:00:00.000Z");
    for (let i = 0; i < count; i += 500) {
      const rows = Array.from({ length: Math.min(500, count - i) }, (_, j) => {
        const n = i + j;
        const at = new Date(start + n * 60_000).toISOString();
        return {
          id: randomUUID(),
          name: `learner${n}`,
          username: `learner${n}`,
          email: `bulk${n}@example.com`,
          emailVerified: false,
          image: null,
          createdAt: at,
          updatedAt: at,
          phone: "9123456780",
          course: n % 2 ? "Java" : "Python",
          gender: "male",
          role: null,
          ...make(n),
        };
      });
      await handle.db.insertInto("user").values(rows).execute();
    }
  }

  it("exports to staff and admins only: anonymous 401, a learner 403", async () => {
    const refusedAnonymous = await exportAs("anonymous");
    expect([refusedAnonymous.status, await refusedAnonymous.json()]).toEqual([401, { message: "Please log in." }]);
    const refusedLearner = await exportAs("learner");
    expect([refusedLearner.status, await refusedLearner.json()]).toEqual([403, { message: "Only staff can do this." }]);
    for (const who of ["staff", "admin"] as const) {
      const response = await exportAs(who);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      expect(response.headers.get("content-disposition")).toMatch(
        /^attachment; filename="learners-\d{4}-\d{2}-\d{2}\.csv"$/,
      );
      expect((await readCsv(response)).rows).toHaveLength(2); // the header and Leena
    }
  });

  it("streams 2,500 learners in ranges of 250: BOM, columns, the list's order, per-learner figures", async () => {
    await addLearners(2_500);
    const leena = people.learner;
    // Leena: two task links, a resume, one unread and one read notice, an unread task, an unread offer letter.
    const now = new Date().toISOString();
    await handle.db
      .insertInto("task_link")
      .values(
        [1, 2].map((n) => ({
          id: randomUUID(),
          learnerId: leena.id,
          link: `https://example.com/${n}`,
          createdAt: now,
        })),
      )
      .execute();
    await handle.db
      .insertInto("resume")
      .values({
        learnerId: leena.id,
        storageKey: "k",
        fileName: "cv.pdf",
        size: 1,
        contentType: "application/pdf",
        uploadedAt: now,
      })
      .execute();
    const message = (kind: "notice" | "task", readAt: string | null) => ({
      id: randomUUID(),
      learnerId: leena.id,
      kind,
      body: "<p>x</p>",
      sentBy: people.staff.id,
      sentAt: now,
      readAt,
    });
    await handle.db
      .insertInto("message")
      .values([message("notice", null), message("notice", now), message("task", null)])
      .execute();
    await handle.db
      .insertInto("offer_letter")
      .values({ learnerId: leena.id, body: "<p>Offer</p>", updatedBy: people.admin.id, updatedAt: now, readAt: null })
      .execute();

    // Ranges: the user table is read twice per 250 learners (a range's last learner, then the range's
    // rows with their counts), and only as records are taken.
    let userReads = 0;
    const counting: KyselyPlugin = {
      transformQuery(args) {
        const node = args.node as { kind: string; from?: { froms: { table?: { identifier?: { name?: string } } }[] } };
        if (node.kind === "SelectQueryNode" && node.from?.froms[0]?.table?.identifier?.name === "user") userReads++;
        return args.node;
      },
      async transformResult(args) {
        return args.result;
      },
    };
    const records = learnerRecords(
      handle.db.withPlugin(counting),
      { search: "", course: "" },
      { timeZone: "Asia/Kolkata" },
    );
    await records.next();
    expect(userReads).toBe(2);
    let taken = 1;
    while (!(await records.next()).done) taken++;
    expect(taken).toBe(2_501);
    expect(userReads).toBe(2 * Math.ceil(2_501 / exportBatchSize));

    const response = await exportAs("staff");
    const { text, rows } = await readCsv(response);
    expect(text.startsWith(bom)).toBe(true);
    expect(text.includes("\r\n")).toBe(true);
    expect(rows[0]).toEqual(exportColumns.map((c) => c.header));
    expect(rows[0]).toEqual([
      "id",
      "name",
      "email",
      "phone",
      "course",
      "gender",
      "signed up",
      "day",
      "resume",
      "task links",
      "unread notices",
      "unread tasks",
      "unread certificates",
      "unread offer letter",
    ]);
    expect(rows).toHaveLength(1 + 2_501);
    // The list's order: newest first, the same ids as its pages.
    const firstPage = await searchLearners(handle.db, { search: "", course: "" }, 1, { pageSize: 100 });
    expect(rows.slice(1, 101).map((r) => r[0])).toEqual(firstPage.learners.map((l) => l.id));
    const byId = new Map(rows.slice(1).map((r) => [r[0], r]));
    expect(byId.get(leena.id)).toEqual([
      leena.id,
      "Leena",
      leena.email,
      "9876543210",
      "Python",
      "female",
      expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      "1",
      "yes",
      "2",
      "1",
      "1",
      "0",
      "1",
    ]);
    const oldest = rows.at(-1)!;
    expect(oldest.slice(1, 6)).toEqual(["learner0", "bulk0@example.com", "9123456780", "Python", "male"]);
    expect(Number(oldest[7])).toBeGreaterThan(500); // signed up on 1 January 2024
    expect(oldest.slice(8)).toEqual(["no", "0", "0", "0", "0", "0"]);

    // The audit log names the audience and the count.
    const audit = await handle.db.selectFrom("staff_audit").selectAll().where("action", "=", "export").execute();
    expect(audit.map((a) => [a.actorName, a.target, Number(a.count)])).toEqual([
      ["Suresh", "all 2,501 learners", 2_501],
    ]);
  });

  it("exports exactly the list's search and course, and escapes cells a spreadsheet would run", async () => {
    await addLearners(6, (i) => ({ username: ["=1+1", "+91 cmd", "-2", "@sum(A1)", "\tTab", "Plain"][i]! }));
    const response = await exportAs("admin", new URLSearchParams({ q: "", course: "Java" }).toString());
    const { rows } = await readCsv(response);
    // Odd-numbered ones are in Java, newest first.
    expect(rows.slice(1).map((r) => r[1])).toEqual(["Plain", "'@sum(A1)", "'+91 cmd"]);
    const all = await readCsv(await exportAs("admin"));
    const names = all.rows.slice(1).map((r) => r[1]);
    expect(names).toEqual(
      expect.arrayContaining(["'=1+1", "'+91 cmd", "'-2", "'@sum(A1)", "'\tTab", "Plain", "Leena"]),
    );
    // Phones are written as stored, ten digits without +91: never escaped, read back as they are.
    expect(new Set(all.rows.slice(1).map((r) => r[3]))).toEqual(new Set(["9123456780", "9876543210"]));

    // A phone-like search matches the phones that hold its digits, as the list does.
    const searched = await readCsv(await exportAs("admin", "q=91234"));
    expect(searched.rows.slice(1).map((r) => r[3])).toEqual(Array(6).fill("9123456780"));
    expect(await countLearners(handle.db, { search: "91234", course: "" })).toBe(6);
    const byName = await readCsv(await exportAs("admin", "q=plain&course=Java"));
    expect(byName.rows.slice(1).map((r) => r[1])).toEqual(["Plain"]);
    const audit = await handle.db
      .selectFrom("staff_audit")
      .select(["target", "count"])
      .where("action", "=", "export")
      .execute();
    expect(audit.map((a) => a.target)).toEqual(
      expect.arrayContaining(['1 learner in Java whose name, email or phone contains "plain"', "3 learners in Java"]),
    );
  });

  it("round-trips every learner through Python's csv module and the import's dry run, once and unchanged", async () => {
    const names = [
      'Asha "Ash" Rao',
      "Kumar, Ravi",
      '=HYPERLINK("https://evil.example","Click")',
      "+91 cmd",
      "-2",
      "@sum(A1)",
      "राहुल शर्मा",
      'नेहा, "दीदी"',
      // Older rows may hold what sign-up refuses now: written straight into the table.
      "Line1\nLine2",
      "Windows\r\nline",
      "Carriage\rreturn",
      "Plain",
    ];
    await addLearners(names.length, (i) => ({ username: names[i]! }));
    const response = await exportAs("admin");
    const bytes = Buffer.from(await response.arrayBuffer());
    const file = path.join(h.dataDir, "export.csv");
    fs.writeFileSync(file, bytes);

    // Python's csv module, as a pandas or Excel user's script reads it.
    const python = spawnSync(
      "python3",
      [
        "-c",
        "import csv, json, sys\n" +
          "with open(sys.argv[1], newline='', encoding='utf-8-sig') as f: print(json.dumps(list(csv.reader(f))))",
        file,
      ],
      { encoding: "utf8" },
    );
    expect(python.stderr).toBe("");
    const rows = JSON.parse(python.stdout) as string[][];
    expect(rows[0]).toEqual(exportColumns.map((c) => c.header));
    expect(rows.slice(1).map((r) => r.length)).toEqual(Array(names.length + 1).fill(exportColumns.length));
    const exported = (name: string) => (/^[=+\-@\t\r]/.test(name) ? `'${name}` : name);
    expect(
      rows
        .slice(1)
        .map((r) => r[1])
        .sort(),
    ).toEqual([...names.map(exported), "Leena"].sort());
    const learners = await handle.db.selectFrom("user").select(["id", "email"]).where("role", "is", null).execute();
    expect(
      rows
        .slice(1)
        .map((r) => [r[0], r[2]])
        .sort(),
    ).toEqual(learners.map((l) => [l.id, l.email]).sort());

    // Upskill's own import, updating: each row once, its values as stored, nothing to change.
    const shown = (await page(`?run=${runOf((await dryRun(bytes, "update")).location)}`)).data.run!;
    if (shown.status === "done") throw new Error("not imported yet");
    expect(shown.extraColumns).toEqual(exportColumns.map((c) => c.header).filter((h) => !header.includes(h)));
    const stored = await handle.db
      .selectFrom("user")
      .select(["email", "username", "phone", "course", "gender"])
      .execute();
    const byEmail = new Map(stored.map((row) => [row.email, row]));
    expect(shown.rows).toHaveLength(names.length + 1);
    for (const row of shown.rows) {
      const learner = byEmail.get(row.values.email)!;
      expect(row.values).toEqual({
        name: learner.username,
        email: learner.email,
        phone: learner.phone,
        course: learner.course,
        gender: learner.gender,
      });
      // What sign-up refuses now, the import refuses too, saying why; the rest is up to date.
      const multiline = /[\r\n]/.test(learner.username!);
      expect([row.values.name, row.action, row.notes]).toEqual([
        learner.username,
        multiline ? "error" : "skip",
        [multiline ? "Remove the line breaks and tabs from name." : "Already up to date."],
      ]);
    }
    expect(new Set(shown.rows.map((row) => row.values.email)).size).toBe(names.length + 1);
  });

  it("limits each person's exports per hour, in the database", async () => {
    for (let i = 0; i < 10; i++) expect((await exportAs("staff")).status).toBe(200);
    const refused = await exportAs("staff");
    expect(refused.status).toBe(429);
    expect((await exportAs("admin")).status).toBe(200);
  });

  it("lets admins import: anonymous 401, learners and staff 403, for the form, the template and failed rows", async () => {
    const file = { name: "x.csv", content: `${header}\r\nAsha,asha@example.com,9876543210,Python,female\r\n` };
    for (const [who, status, message] of [
      ["anonymous", 401, "Please log in."],
      ["learner", 403, "Only staff can do this."],
      ["staff", 403, "Only an admin can do this."],
    ] as const) {
      const refused = await importAs(who, { intent: "dry-run", mode: "add" }, file);
      expect([refused.status, refused.data.message]).toEqual([status, message]);
      const request = new Request(`${appUrl}/staff/import/template.csv`, {
        headers: who === "anonymous" ? {} : { cookie: user(who)!.cookie },
      });
      expect((await importTemplateResponse(request)).status).toBe(status);
      expect((await failedRowsResponse(request, "x")).status).toBe(status);
      if (who !== "anonymous") expect((await page("", who)).status).toBe(403);
    }
    expect(await handle.db.selectFrom("learner_import").select("id").execute()).toEqual([]);
    const template = await importTemplateResponse(
      new Request(`${appUrl}/staff/import/template.csv`, { headers: { cookie: people.admin.cookie } }),
    );
    expect(Buffer.from(await template.arrayBuffer()).toString("utf8")).toBe(`${bom}${header}\r\n`);
    const accepted = await importAs("admin", { intent: "dry-run", mode: "add" }, file);
    expect(accepted.status).toBe(302);
  });

  it("dry-runs a file: every problem of every row with its line, nothing written until Import", async () => {
    const csv = [
      `${bom}Email,NAME,Phone,course,Gender,City`, // any case, any order, one extra column
      "asha@example.com,Asha,9876543210,python,Female,Pune",
      ",,,,,",
      'ravi@example,"",98765,Cooking,other,Delhi', // line 4: every field wrong
      "LEENA@example.com,Leena K,9000000001,Java,female,", // Leena is registered
      "suresh@example.com,Suresh,9000000002,Java,male,", // staff
      "asha@example.com,Asha again,9000000003,Python,female,", // repeats line 2
      "evil@example.com,'=HYPERLINK(1),9000000004,Python,male,",
      'multi@example.com,Multi,9000000005,Python,male,"Two', // lines 9 and 10: one row
      'lines"',
      "late@example.com,Late,12345,Python,male,", // line 11
    ].join("\r\n");
    const before = await learnerCount();
    const answer = await dryRun(csv);
    expect(answer.status).toBe(302);
    const run = runOf(answer.location);
    expect(await learnerCount()).toBe(before);

    const shown = (await page(`?run=${run}`)).data.run!;
    if (shown.status === "done") throw new Error("not imported yet");
    expect(shown.extraColumns).toEqual(["City"]);
    expect(shown.totals).toEqual({ create: 3, update: 0, skip: 1, error: 4 });
    expect(shown.problems.map((p) => [p.line, p.notes])).toEqual([
      [
        4,
        [
          "Username is required.",
          "Invalid phone number.",
          "That course is not offered. Please choose one from the list.",
          "Gender selection is required.",
          "Invalid email format.",
        ],
      ],
      [6, ["That email belongs to a staff account; an import changes learners only."]],
      [7, ["This email is already on line 2."]],
      [11, ["Invalid phone number."]],
    ]);
    expect(shown.rows.map((r) => [r.line, r.action])).toEqual([
      [2, "create"],
      [4, "error"],
      [5, "skip"],
      [6, "error"],
      [7, "error"],
      [8, "create"],
      [9, "create"],
      [11, "error"],
    ]);
    // The export's formula escape is undone on the way back in.
    expect(shown.rows.find((r) => r.line === 8)!.values.name).toBe("=HYPERLINK(1)");

    // Another admin cannot see or apply it.
    const otherAdmin = await h.signUp("Bhavna");
    await h.setRole(otherAdmin, "admin");
    const theirs = await outcome<ImportPageData>(() =>
      loadImport(new Request(`${appUrl}/staff/import?run=${run}`, { headers: { cookie: otherAdmin.cookie } })),
    );
    expect([theirs.data.run, theirs.data.gone]).toEqual([null, true]);

    // Add and update: Leena's row updates her instead.
    const update = runOf((await dryRun(csv, "update")).location);
    const updating = (await page(`?run=${update}`)).data.run!;
    expect(updating.totals).toEqual({ create: 3, update: 1, skip: 0, error: 4 });
    expect(updating.status !== "done" && updating.rows.find((r) => r.line === 5)!.notes).toEqual([
      "Changes name, phone and course.",
    ]);
  });

  it("imports in either mode, audits it, tells staff lists, and offers the failed rows as CSV", async () => {
    const events: RealtimeEvent[] = [];
    h.bus.subscribe(staffTopic, (event) => events.push(event));
    const csv = [
      header,
      "Asha,asha@example.com,9876543210,Python,female",
      "Leena Kumar,leena@example.com,9000000001,Java,female",
      "Bad,bad,1,Python,male",
    ].join("\n");
    const add = runOf((await dryRun(csv, "add")).location);
    const applied = await importAs("admin", { intent: "import", run: add });
    expect([applied.status, applied.location]).toEqual([302, `/staff/import?run=${encodeURIComponent(add)}`]);
    const result = (await page(`?run=${add}`)).data.run!;
    expect(result).toMatchObject({
      status: "done",
      totals: { create: 1, update: 0, skip: 1, error: 1 },
      failedCount: 1,
      invited: 1,
    });
    const asha = await handle.db
      .selectFrom("user")
      .selectAll()
      .where("email", "=", "asha@example.com")
      .executeTakeFirstOrThrow();
    expect([asha.username, asha.name, asha.phone, asha.course, asha.gender, asha.role]).toEqual([
      "Asha",
      "Asha",
      "9876543210",
      "Python",
      "female",
      null,
    ]);
    // A learner in the list, with no password: no credential account until they choose one.
    expect((await searchLearners(handle.db, { search: "asha", course: "" }, 1)).learners.map((l) => l.id)).toEqual([
      asha.id,
    ]);
    expect(await handle.db.selectFrom("account").select("id").where("userId", "=", asha.id).execute()).toEqual([]);
    const leena = await handle.db
      .selectFrom("user")
      .select(["username", "phone"])
      .where("id", "=", people.learner.id)
      .executeTakeFirstOrThrow();
    expect(leena).toEqual({ username: "Leena", phone: "9876543210" });
    expect(events.some((e) => e.type === "learners-imported")).toBe(true);

    // Import twice: the second click finds it done.
    expect((await importAs("admin", { intent: "import", run: add })).status).toBe(404);

    const failed = await failedRowsResponse(
      new Request(`${appUrl}/staff/import/${add}/failed.csv`, { headers: { cookie: people.admin.cookie } }),
      add,
    );
    const { rows } = await readCsv(failed);
    expect(rows).toEqual([
      ["line", "name", "email", "phone", "course", "gender", "reason"],
      ["4", "Bad", "bad", "1", "Python", "male", "Invalid phone number. Invalid email format."],
    ]);

    const update = runOf((await dryRun(csv, "update")).location);
    expect((await importAs("admin", { intent: "import", run: update })).status).toBe(302);
    const updated = (await page(`?run=${update}`)).data.run!;
    expect(updated).toMatchObject({ status: "done", totals: { create: 0, update: 1, skip: 1, error: 1 }, invited: 0 });
    const changed = await handle.db
      .selectFrom("user")
      .select(["username", "name", "phone", "course"])
      .where("id", "=", people.learner.id)
      .executeTakeFirstOrThrow();
    expect(changed).toEqual({ username: "Leena Kumar", name: "Leena Kumar", phone: "9000000001", course: "Java" });

    const audit = await handle.db
      .selectFrom("staff_audit")
      .select(["actorName", "detail", "target", "count"])
      .where("action", "=", "import")
      .orderBy("createdAt")
      .execute();
    expect(audit.map((a) => ({ ...a, count: Number(a.count) }))).toEqual([
      {
        actorName: "Anita",
        detail: "Add new only",
        target: "learners.csv: 1 new, 0 updated, 1 skipped, 1 failed",
        count: 1,
      },
      {
        actorName: "Anita",
        detail: "Add and update",
        target: "learners.csv: 0 new, 1 updated, 1 skipped, 1 failed",
        count: 1,
      },
    ]);
  });

  it("invites each new learner: no password until the emailed link sets one, then they sign in", async () => {
    const run = runOf((await dryRun(`${header}\nAsha,asha@example.com,9876543210,Python,female\n`)).location);
    expect((await importAs("admin", { intent: "import", run })).status).toBe(302);

    // Signing in before a password is chosen fails as a wrong password does.
    const signIn = (password: string) =>
      h.auth.api.signInEmail({ body: { email: "asha@example.com", password }, asResponse: true });
    const early = await signIn("anything-at-all");
    expect([early.status, ((await early.json()) as { message: string }).message]).toEqual([
      401,
      "Invalid email or password",
    ]);

    // The invitation waits in the mail queue, without its link (made as it is sent).
    const queued = await handle.db.selectFrom("mail_job").selectAll().where("kind", "=", "invitation").execute();
    expect(queued).toMatchObject([{ status: "pending", refId: null, attempts: 0 }]);
    await h.services.mailWorker.runOnce();
    const outbox = path.join(h.dataDir, "outbox");
    expect(fs.readdirSync(outbox)).toHaveLength(1);
    // Quoted-printable, decoded well enough to read the link.
    const mail = fs
      .readFileSync(path.join(outbox, fs.readdirSync(outbox)[0]!), "utf8")
      .replace(/=\r?\n/g, "")
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    expect(mail).toContain("To: asha@example.com");
    expect(mail).toContain(`Subject: Your ${h.config.site.name} account is ready: choose your password`);
    expect(mail).toContain("expires in 7 days");
    const link = /http:\/\/localhost:3999\/reset-password\?token=([A-Za-z0-9_-]+)&invite=1/.exec(mail);
    expect(link, mail).not.toBeNull();
    const token = link![1]!;
    const owner = await resetTokenOwner(h.auth, token);
    expect(owner?.email).toBe("asha@example.com");
    const verification = await handle.db
      .selectFrom("verification")
      .select("expiresAt")
      .where("identifier", "=", `reset-password:${token}`)
      .executeTakeFirstOrThrow();
    const days = (new Date(verification.expiresAt).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);

    const request = new Request(`${appUrl}/reset-password`, { method: "POST", headers: { origin: appUrl } });
    const done = await completePasswordReset(h.auth, request, token, "asha-password-1");
    expect(done.status).toBe("done");
    expect((await signIn("asha-password-1")).status).toBe(200);
    // The link works once.
    expect((await completePasswordReset(h.auth, request, token, "another-password-2")).status).toBe("link-invalid");
  });

  it("completes the import when the mail server is down, and sends the invitation once it is back; never logs the link", async () => {
    const run = runOf((await dryRun(`${header}\nAsha,asha@example.com,9876543210,Python,female\n`)).location);
    let logged = "";
    const logger = createLogger(
      "debug",
      new Writable({ write: (chunk, _encoding, done) => done(void (logged += chunk)) }),
    );
    expect((await importAs("admin", { intent: "import", run })).status).toBe(302);
    expect(await learnerCount()).toBe(2);
    // A real SMTP client, to a port where nothing listens: a temporary failure, retried later.
    const deps = (h.services.mailWorker as unknown as { deps: ConstructorParameters<typeof MailWorker>[0] }).deps;
    const down = createMailer(
      { smtpUrl: "smtp://127.0.0.1:9", mailFrom: "upskill@example.com", dataDir: h.dataDir },
      logger,
    );
    await new MailWorker({ ...deps, mailer: down, logger }).runOnce();
    const [failed] = await handle.db.selectFrom("mail_job").selectAll().where("kind", "=", "invitation").execute();
    expect(failed).toMatchObject({ status: "pending", attempts: 1 });
    expect(failed!.lastError).toBeTruthy();
    expect(logged).not.toContain("reset-password?token=");
    // Back up (the outbox here), once the retry is due: sent, with a link that works.
    await handle.db.updateTable("mail_job").set({ nextAttemptAt: Date.now() }).execute();
    await h.services.mailWorker.runOnce();
    const [sent] = await handle.db.selectFrom("mail_job").selectAll().where("kind", "=", "invitation").execute();
    expect(sent).toMatchObject({ status: "sent", attempts: 2 });
    const outbox = path.join(h.dataDir, "outbox");
    const mail = fs.readFileSync(path.join(outbox, fs.readdirSync(outbox)[0]!), "utf8").replace(/=\r?\n/g, "");
    expect(mail).toContain("To: asha@example.com");
    expect(mail).toMatch(/reset-password\?token=3D[A-Za-z0-9_-]+&invite=3D1/);
  });

  it("refuses a malformed file with a clear 4xx and imports nothing", async () => {
    const latin1 = Buffer.from(`${header}\nJosé,jose@example.com,9876543210,Python,male\n`, "latin1");
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`${header}\n`, "utf16le")]);
    const tooManyRows = [
      header,
      ...Array.from({ length: 10_001 }, (_, i) => `L${i},l${i}@example.com,9876543210,Python,male`),
    ].join("\n");
    const cases: [BlobPart, number, string][] = [
      [latin1, 415, "The file is not UTF-8 text."],
      [utf16, 415, "The file is UTF-16 text, not UTF-8."],
      ["", 400, "Choose a CSV file to upload."],
      ["\r\n\r\n", 400, "The file is empty."],
      [`${header}\r\n`, 400, "The file has its header row but no learners under it."],
      ["name,mail,course\nAsha,a@example.com,Python\n", 400, "The file has no email, phone and gender columns."],
      ["name,email,email,phone,course,gender\n", 400, "The file has two “email” columns."],
      [
        `${header}\nAsha,"a@example.com,9876543210,Python,female\n`,
        400,
        "The file is not valid CSV: a quoted cell is never closed",
      ],
      [tooManyRows, 413, "The file has more than 10,000 rows."],
      ["x".repeat(5 * 1024 * 1024 + 1), 413, "The file is larger than 5 MB."],
    ];
    for (const [content, status, start] of cases) {
      const refused = await dryRun(content);
      expect([refused.status, refused.data.message.slice(0, start.length)]).toEqual([status, start]);
    }
    expect(await handle.db.selectFrom("learner_import").select("id").execute()).toEqual([]);
    expect(await learnerCount()).toBe(1);
    // A declared length over the limit is refused before the body is read.
    const declared = await outcome<{ message: string }>(() =>
      importAction(
        new Request(`${appUrl}/staff/import`, {
          method: "POST",
          headers: { origin: appUrl, cookie: people.admin.cookie, "content-length": String(50 * 1024 * 1024) },
          body: "x",
        }),
      ),
    );
    expect([declared.status, declared.data.message]).toEqual([
      413,
      "The file is larger than 5 MB. Split it into smaller files and upload each.",
    ]);
    // Exactly 10,000 rows is fine, and quick to read.
    const tenThousand = tooManyRows.split("\n").slice(0, 10_001).join("\n");
    const parsed = await parseLearnerFile(new Blob([tenThousand]));
    expect(parsed.ok && parsed.rows.length).toBe(10_000);
    expect(parsed.ok && parsed.rows.at(-1)!.line).toBe(10_001);
  });
});
