import { randomBytes } from "node:crypto";
import { signUpCourses } from "~/content/site-content";
import type { Db } from "~/db/database.server";
import type { Insertable } from "kysely";
import type { MessageTable, TaskLinkTable, UserTable } from "~/db/schema";
import type { MessageKind } from "~/messages/kinds";
import { seededRandom } from "~/core/seeded-random";

// Realistic learners for trying the staff dashboard and measuring it at scale (npm run seed).

const femaleNames = [
  "Aarti",
  "Aditi",
  "Ananya",
  "Anjali",
  "Asha",
  "Bhavna",
  "Deepa",
  "Divya",
  "Gayatri",
  "Isha",
  "Jyoti",
  "Kavya",
  "Kirti",
  "Lakshmi",
  "Madhuri",
  "Meera",
  "Neha",
  "Nisha",
  "Pooja",
  "Priya",
  "Radhika",
  "Rashmi",
  "Riya",
  "Sakshi",
  "Sandhya",
  "Shreya",
  "Sneha",
  "Sunita",
  "Swati",
  "Tanvi",
  "Trupti",
  "Vaishnavi",
  "Vidya",
  "Yamini",
  "Zoya",
  "Fatima",
  "Harpreet",
  "Ishita",
  "Manasi",
  "Pallavi",
];
const maleNames = [
  "Aakash",
  "Abhishek",
  "Aditya",
  "Ajay",
  "Amit",
  "Aniket",
  "Arjun",
  "Ashish",
  "Chetan",
  "Deepak",
  "Ganesh",
  "Harsh",
  "Irfan",
  "Kiran",
  "Mahesh",
  "Manish",
  "Mohit",
  "Nikhil",
  "Omkar",
  "Pranav",
  "Prasad",
  "Rahul",
  "Rajesh",
  "Rohan",
  "Sachin",
  "Sagar",
  "Sameer",
  "Sandeep",
  "Saurabh",
  "Shubham",
  "Siddharth",
  "Suraj",
  "Tejas",
  "Tushar",
  "Varun",
  "Vikas",
  "Vinay",
  "Yash",
  "Gurpreet",
  "Imran",
];
const surnames = [
  "Patil",
  "Deshmukh",
  "Joshi",
  "Kulkarni",
  "Pawar",
  "Shinde",
  "Jadhav",
  "More",
  "Chavan",
  "Gaikwad",
  "Sharma",
  "Verma",
  "Gupta",
  "Singh",
  "Yadav",
  "Mishra",
  "Iyer",
  "Nair",
  "Menon",
  "Reddy",
  "Rao",
  "Naidu",
  "Pillai",
  "Das",
  "Banerjee",
  "Chatterjee",
  "Mukherjee",
  "Sen",
  "Bose",
  "Ghosh",
  "Mehta",
  "Shah",
  "Desai",
  "Patel",
  "Trivedi",
  "Khan",
  "Shaikh",
  "Qureshi",
  "Gill",
  "Sandhu",
];
const linkHosts = ["https://github.com", "https://gitlab.com", "https://codepen.io", "https://www.behance.net"];
const messageTexts = {
  notice: [
    "<p>Classes are <strong>cancelled</strong> on Monday for Ganesh Chaturthi.</p>",
    "<p>The mock interview schedule is out. Check your email.</p>",
    "<p>Lab timings change to <em>10:00 to 13:00</em> from next week.</p>",
  ],
  task: [
    "<p>Build a landing page with a contact form and submit the repository link.</p>",
    "<ul><li>Solve 5 array problems</li><li>Write their time complexity</li></ul>",
    "<p>Prepare a 5-minute demo of your mini project.</p>",
  ],
  certificate: [
    "<p>Certificate of completion: <strong>Module 1</strong>.</p>",
    "<p>Certificate of participation: <em>Hackathon 2024</em>.</p>",
  ],
} satisfies Partial<Record<MessageKind, string[]>>;

export interface SeedOptions {
  learners: number;
  /** Reproducible runs: the same seed makes the same learners (apart from the run tag). */
  seed?: number;
  /** Told after each batch (for a progress line). */
  onProgress?: (done: number) => void;
  now?: Date;
}

export interface SeedResult {
  learners: number;
  taskLinks: number;
  messages: number;
}

const batchSize = 1000;

/**
 * Inserts learners with task links and messages, a batch of 1,000 learners per transaction and
 * multi-row inserts, so 100,000 take well under two minutes on either database.
 */
export async function seedLearners(db: Db, options: SeedOptions): Promise<SeedResult> {
  const random = seededRandom(options.seed ?? 20240601, "a");
  // A tag per run keeps emails unique when seeding the same database twice.
  const runTag = randomBytes(3).toString("hex");
  const now = (options.now ?? new Date()).getTime();
  const year = 365 * 24 * 3600 * 1000;
  const result: SeedResult = { learners: 0, taskLinks: 0, messages: 0 };

  for (let start = 0; start < options.learners; start += batchSize) {
    const count = Math.min(batchSize, options.learners - start);
    const users: Insertable<UserTable>[] = [];
    const links: Insertable<TaskLinkTable>[] = [];
    const messages: Insertable<MessageTable>[] = [];
    for (let i = 0; i < count; i++) {
      const n = start + i;
      const female = random.next() < 0.5;
      const first = random.pick(female ? femaleNames : maleNames);
      const last = random.pick(surnames);
      const createdAt = new Date(now - Math.floor(random.next() * year)).toISOString();
      const id = random.id();
      users.push({
        id,
        name: `${first} ${last}`,
        username: `${first} ${last}`,
        email: `${first}.${last}.${runTag}${n}@example.in`.toLowerCase(),
        emailVerified: false,
        image: null,
        createdAt,
        updatedAt: createdAt,
        phone: `${random.pick(["6", "7", "8", "9"])}${String(random.int(1e9)).padStart(9, "0")}`,
        course: random.pick(signUpCourses),
        gender: female ? "female" : "male",
        role: null,
      });
      const created = Date.parse(createdAt);
      for (let l = random.int(3); l > 0; l--) {
        const at = new Date(created + Math.floor(random.next() * (now - created))).toISOString();
        const slug = `${first}-${last}`.toLowerCase();
        links.push({
          id: random.id(),
          learnerId: id,
          link: `${random.pick(linkHosts)}/${slug}${n}/project-${random.int(50) + 1}`,
          createdAt: at,
        });
      }
      for (let m = random.int(4); m > 0; m--) {
        const kind = random.pick(["notice", "notice", "task", "certificate"] as const);
        const at = new Date(created + Math.floor(random.next() * (now - created))).toISOString();
        messages.push({
          id: random.id(),
          learnerId: id,
          kind,
          body: random.pick(messageTexts[kind]),
          sentBy: null,
          sentAt: at,
          readAt: random.next() < 0.5 ? at : null,
        });
      }
    }
    await db.transaction().execute(async (trx) => {
      // At most ~12,000 parameters per statement: under both databases' limits.
      await trx.insertInto("user").values(users).execute();
      for (let i = 0; i < links.length; i += batchSize) {
        await trx
          .insertInto("task_link")
          .values(links.slice(i, i + batchSize))
          .execute();
      }
      for (let i = 0; i < messages.length; i += batchSize) {
        await trx
          .insertInto("message")
          .values(messages.slice(i, i + batchSize))
          .execute();
      }
    });
    result.learners += users.length;
    result.taskLinks += links.length;
    result.messages += messages.length;
    options.onProgress?.(result.learners);
  }
  return result;
}
