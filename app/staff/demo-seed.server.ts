import { randomBytes, randomInt } from "node:crypto";
import { hashPassword } from "better-auth/crypto";
import type { Db } from "~/db/database.server";
import { seedPlacement, type PlacementSeedResult } from "~/placement/seed.server";
import { seededRandom } from "~/core/seeded-random";
import { seedLearners } from "./seed.server";

/*
 * A small, believable institute for trying Upskill (npm run seed -- --demo): an admin who can sign
 * in, two trainers teaching the batches, about 300 learners, a few batches with enrolments,
 * offers and payments, and testimonials the learners agreed to show.
 */

export const demoAdminEmail = "admin@demo.example";

const staff = [
  { email: demoAdminEmail, name: "Meera Kulkarni", role: "admin", gender: "female" },
  { email: "rahul.deshpande@demo.example", name: "Rahul Deshpande", role: "trainer", gender: "male" },
  { email: "sneha.joshi@demo.example", name: "Sneha Joshi", role: "trainer", gender: "female" },
] as const;

const testimonials = [
  {
    name: "Priya Sharma",
    course: "Web Development",
    quote: "The projects were real ones. I showed them in every interview and joined a product company in Pune.",
  },
  {
    name: "Amit Patil",
    course: "Python",
    quote:
      "I came from a mechanical background. The trainers were patient and the mock interviews made the difference.",
  },
  {
    name: "Neha Gupta",
    course: "Data Science",
    quote: "Paying after placement meant I could focus on learning. I got my first analyst job within three months.",
  },
  {
    name: "Rohan Mehta",
    course: "Java",
    quote: "Daily tasks kept me going. The placement team set up five interviews in two weeks.",
  },
];

export interface DemoSeedResult {
  adminEmail: string;
  /** A new password for the admin, made on every run. */
  adminPassword: string;
  learners: number;
  placement: PlacementSeedResult;
  testimonials: number;
}

async function seedStaff(db: Db, password: string, at: string) {
  const hash = await hashPassword(password);
  const random = seededRandom(randomInt(2 ** 31), "a");
  const ids: string[] = [];
  for (const person of staff) {
    const existing = await db.selectFrom("user").select("id").where("email", "=", person.email).executeTakeFirst();
    const id = existing?.id ?? random.id();
    ids.push(id);
    if (existing) {
      if (person.role === "admin") {
        await db
          .updateTable("account")
          .set({ password: hash, updatedAt: at })
          .where("userId", "=", id)
          .where("providerId", "=", "credential")
          .execute();
      }
      continue;
    }
    await db
      .insertInto("user")
      .values({
        id,
        name: person.name,
        username: person.name,
        email: person.email,
        emailVerified: true,
        image: null,
        createdAt: at,
        updatedAt: at,
        phone: "9876543210",
        course: null,
        gender: person.gender,
        role: person.role,
        roleChangedAt: at,
      })
      .execute();
    await db
      .insertInto("account")
      .values({
        id: random.id(),
        accountId: id,
        providerId: "credential",
        userId: id,
        accessToken: null,
        refreshToken: null,
        idToken: null,
        accessTokenExpiresAt: null,
        refreshTokenExpiresAt: null,
        scope: null,
        password: person.role === "admin" ? hash : null,
        createdAt: at,
        updatedAt: at,
      })
      .execute();
  }
  return ids.slice(1);
}

async function seedTestimonials(db: Db, at: string) {
  const random = seededRandom(randomInt(2 ** 31), "a");
  const taken = new Set((await db.selectFrom("testimonial").select("name").execute()).map((row) => row.name));
  const rows = testimonials
    .filter((t) => !taken.has(t.name))
    .map((t) => ({
      id: random.id(),
      ...t,
      photo: null,
      consentAt: at,
      consentNote: "Consent form signed at graduation",
      createdAt: at,
      updatedAt: at,
    }));
  if (rows.length > 0) await db.insertInto("testimonial").values(rows).execute();
  return rows.length;
}

/** Seeds the demo institute; run again, it adds another 300 learners and resets the admin's password. */
export async function seedDemo(db: Db, options: { now?: Date } = {}): Promise<DemoSeedResult> {
  const now = options.now ?? new Date();
  const at = now.toISOString();
  const adminPassword = `demo-${randomBytes(6).toString("hex")}`;
  const trainers = await seedStaff(db, adminPassword, at);
  const learners = await seedLearners(db, { learners: 300, seed: randomInt(2 ** 31), now });
  const before = new Set((await db.selectFrom("batch").select("id").execute()).map((row) => row.id));
  const placement = await seedPlacement(db, { batches: 5, share: 0.8, seed: randomInt(2 ** 31), now });
  const batches = (await db.selectFrom("batch").select("id").execute()).filter((row) => !before.has(row.id));
  const pairs = batches.map((batch, i) => ({
    batchId: batch.id,
    staffId: trainers[i % trainers.length]!,
    createdAt: at,
  }));
  if (pairs.length > 0) await db.insertInto("batch_trainer").values(pairs).execute();
  return {
    adminEmail: demoAdminEmail,
    adminPassword,
    learners: learners.learners,
    placement,
    testimonials: await seedTestimonials(db, at),
  };
}
