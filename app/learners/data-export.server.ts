import { learnerCsvColumns, profileFieldsAfterName } from "~/accounts/sign-up-schema";
import { Readable } from "node:stream";
import yazl from "yazl";
import type { Selectable } from "kysely";
import type { Db } from "~/db/database.server";
import { learnerPlacement } from "~/placement/learner-placement.server";
import { learnerAssignmentFiles, learnerAssignmentsJson } from "./assignments-export.server";
import type { DocumentTable, ProfilePhotoTable, ResumeTable } from "~/db/schema";
import type { UploadStorage } from "~/uploads/storage.server";

/** A person's copy of everything stored about them ("Download my data"), as a ZIP. */

interface ExportDeps {
  db: Db;
  storage: UploadStorage;
  siteName: string;
}

const pageSize = 500;

/**
 * The archive, streamed: data.json (written a page at a time), the stored files, and a
 * README.txt that says what each part is. Nothing is held whole in memory.
 */
export async function learnerDataArchive(deps: ExportDeps, userId: string, now = new Date()): Promise<Readable> {
  const { db, storage } = deps;
  const zip = new yazl.ZipFile();
  // The rows that name stored files: read once, for data.json and for the files beside it.
  const [resume, photo, documents, offers, assignmentFiles] = await Promise.all([
    db.selectFrom("resume").selectAll().where("learnerId", "=", userId).executeTakeFirst(),
    db.selectFrom("profile_photo").selectAll().where("learnerId", "=", userId).executeTakeFirst(),
    db.selectFrom("document").selectAll().where("learnerId", "=", userId).orderBy("createdAt").execute(),
    db.selectFrom("job_offer").select(["applicationId", "storageKey"]).where("learnerId", "=", userId).execute(),
    learnerAssignmentFiles(db, userId),
  ]);
  const resumeFile = resume ? `files/resume${extensionOf(resume.fileName)}` : null;
  const photoFile = photo ? "files/photo.webp" : null;

  zip.addBuffer(Buffer.from(readme(deps.siteName, now)), "README.txt");
  const output = zip.outputStream as Readable;
  const data = Readable.from(
    dataJson(db, userId, now, { resume, photo, documents }, { resume: resumeFile, photo: photoFile }),
  );
  // A failed read ends the download with an error instead of an uncaught one.
  data.on("error", (error) => output.destroy(error));
  zip.addReadStream(data, "data.json");
  for (const [key, name] of [
    [resume?.storageKey, resumeFile],
    [photo?.storageKey, photoFile],
    ...documents.map((document) => [document.storageKey, `documents/${document.code}.pdf`] as const),
    ...offers.map((offer) => [offer.storageKey, `files/offers/${offer.applicationId}.pdf`] as const),
    ...assignmentFiles.map((file) => [file.storageKey, file.name] as const),
  ] as const) {
    if (!key || !name) continue;
    const stored = await storage.get(key);
    if (!stored) continue;
    stored.stream.on("error", (error) => output.destroy(error));
    zip.addReadStream(stored.stream, name);
  }
  zip.end();
  return output;
}

const extensionOf = (fileName: string) => {
  const match = /\.[A-Za-z0-9]{1,8}$/.exec(fileName.slice(-9));
  return match ? match[0].toLowerCase() : "";
};

/** data.json, section by section; lists are read and written a page at a time. */
async function* dataJson(
  db: Db,
  userId: string,
  now: Date,
  stored: {
    resume: Selectable<ResumeTable> | undefined;
    photo: Selectable<ProfilePhotoTable> | undefined;
    documents: Selectable<DocumentTable>[];
  },
  files: { resume: string | null; photo: string | null },
): AsyncGenerator<string> {
  const { resume, photo, documents } = stored;
  const user = await db
    .selectFrom("user")
    .select(["id", "username", "name", "email", "emailVerified", ...profileFieldsAfterName, "role"])
    .select(["createdAt", "updatedAt", "roleChangedAt", "lastActiveAt"])
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
  const field = (name: string, value: unknown, last = false) =>
    `  ${JSON.stringify(name)}: ${JSON.stringify(value, null, 2).replaceAll("\n", "\n  ")}${last ? "" : ","}\n`;

  yield "{\n";
  yield field("exportedAt", now.toISOString());
  yield field("profile", {
    ...user,
    emailVerified: Boolean(user.emailVerified),
    createdAt: iso(user.createdAt),
    updatedAt: iso(user.updatedAt),
  });
  yield field(
    "emailPreferences",
    (await db.selectFrom("email_preference").selectAll().where("learnerId", "=", userId).executeTakeFirst()) ?? null,
  );
  yield field("resume", resume ? { ...withoutKeys(resume), file: files.resume } : null);
  yield field("profilePhoto", photo ? { updatedAt: photo.updatedAt, file: files.photo } : null);
  yield field(
    "taskLinks",
    await db
      .selectFrom("task_link")
      .select(["link", "createdAt"])
      .where("learnerId", "=", userId)
      .orderBy("createdAt")
      .execute(),
  );
  yield field(
    "documents",
    documents.map(
      ({
        storageKey: _key,
        learnerId: _learner,
        statusIndex: _index,
        issuedBy: _by,
        revokedBy: _rby,
        ...document
      }) => ({
        ...document,
        payAmountPaise: document.payAmountPaise === null ? null : Number(document.payAmountPaise),
        file: `documents/${document.code}.pdf`,
      }),
    ),
  );
  const offer = await db.selectFrom("offer_letter").selectAll().where("learnerId", "=", userId).executeTakeFirst();
  yield field("offerLetter", offer ? { html: offer.body, updatedAt: offer.updatedAt, readAt: offer.readAt } : null);
  // Applications, offers (their letters are in files/offers/), batches, agreements and fees.
  yield field("placement", await learnerPlacement(db, userId, now.toISOString().slice(0, 10)));
  yield field("assignments", await learnerAssignmentsJson(db, userId));

  yield* messagesJson(db, userId);

  yield field(
    "emailsSent",
    await db
      .selectFrom("mail_job")
      .select(["kind", "status", "attempts", "createdAt", "finishedAt"])
      .where("learnerId", "=", userId)
      .orderBy("createdAt")
      .execute(),
  );
  yield field(
    "staffActionsAboutYou",
    await db
      .selectFrom("staff_audit")
      .select(["action", "detail", "actorName", "count", "createdAt"])
      .where("targetId", "=", userId)
      .orderBy("createdAt")
      .execute(),
  );
  yield field(
    "signInSessions",
    (
      await db
        .selectFrom("session")
        .select(["createdAt", "updatedAt", "expiresAt", "ipAddress", "userAgent"])
        .where("userId", "=", userId)
        .orderBy("createdAt")
        .execute()
    ).map((session) => ({
      ...session,
      createdAt: iso(session.createdAt),
      updatedAt: iso(session.updatedAt),
      expiresAt: iso(session.expiresAt),
    })),
  );
  yield field(
    "accountDeletion",
    (await db
      .selectFrom("account_deletion")
      .select(["requestedAt", "eraseAfter"])
      .where("userId", "=", userId)
      .executeTakeFirst()) ?? null,
    true,
  );
  yield "}\n";
}

/** data.json's "messages": as many as there are, read and written a page at a time. */
async function* messagesJson(db: Db, userId: string): AsyncGenerator<string> {
  yield '  "messages": [';
  let after = { sentAt: "", id: "" };
  let first = true;
  for (;;) {
    const page = await db
      .selectFrom("message")
      .leftJoin("user as sender", "sender.id", "message.sentBy")
      .select(["message.id", "message.kind", "message.body", "message.sentAt", "message.readAt"])
      .select(["sender.username as sentBy"])
      .where("message.learnerId", "=", userId)
      .where((w) =>
        w.or([
          w("message.sentAt", ">", after.sentAt),
          w.and([w("message.sentAt", "=", after.sentAt), w("message.id", ">", after.id)]),
        ]),
      )
      .orderBy("message.sentAt")
      .orderBy("message.id")
      .limit(pageSize)
      .execute();
    for (const message of page) {
      yield `${first ? "\n" : ",\n"}    ${JSON.stringify({
        kind: message.kind,
        html: message.body,
        sentAt: message.sentAt,
        sentBy: message.sentBy,
        readAt: message.readAt,
      })}`;
      first = false;
    }
    if (page.length < pageSize) break;
    after = page.at(-1)!;
  }
  yield first ? "],\n" : "\n  ],\n";
}

const iso = (value: string | Date) => new Date(value).toISOString();

/** A stored row without where its file lives inside our storage (meaningless outside it). */
function withoutKeys<T extends { storageKey: string; learnerId: string }>(row: T) {
  const { storageKey: _storageKey, learnerId: _learnerId, ...rest } = row;
  return rest;
}

function readme(siteName: string, now: Date): string {
  return `Your data at ${siteName}
Exported ${now.toISOString()}.

This archive holds everything ${siteName} stores about you:

data.json
  profile               your account: ${learnerCsvColumns.join(", ")}, role, when you signed up
  emailPreferences      which emails you get, per kind (null: every kind immediately)
  resume, profilePhoto  when you uploaded them; the files themselves are in files/
  taskLinks             the links you submitted
  offerLetter           your offer letter as written by the institute, and when you read it
  placement             your batches, agreements (the text you accepted), job applications with their
                        history, the offers you recorded, your instalments, payments, pauses and waivers,
                        and whether you agreed to be named on the public site
  documents             your certificates and offer letters as issued: every field, their code, status and
                        the SHA-256 of each PDF; the PDFs themselves are in documents/
  assignments           the assignments set for you: due time, status, points, what you handed in (links,
                        and files in files/assignments/), and the conversation with your trainer
  messages              every notice, task and certificate sent to you: text (HTML), when, by whom, when you read it
  emailsSent            the notification emails we sent you (or tried to), and how that went
  staffActionsAboutYou  what staff did about you (the audit log): what, who, when
  signInSessions        where you are signed in: when, from which address and browser
  accountDeletion       if you asked to delete your account: when, and when it will be erased

files/
  resume.*              your resume, as you uploaded it
  photo.webp            your profile photo, as we store it
  offers/<id>.pdf       the offer letters you uploaded, by application
  assignments/<id>.*    the files you uploaded for assignments

documents/
  <code>.pdf            each certificate and offer letter, as issued

Not included: your password, which is stored only as a one-way hash, and short-lived counters
of sign-in attempts, which are deleted within an hour.

To correct something, change it on your Settings page or ask the institute. To delete
your account, use "Delete my account" on your Settings page.
`;
}
