/** Says once, at the top of every run, whether the PostgreSQL pass runs. */
export default function setup() {
  const url = process.env.TEST_DATABASE_URL;
  if (url) console.log(`Database tests run on SQLite and on PostgreSQL (${url.replace(/:[^:@/]*@/, ":***@")}).`);
  else console.log("PostgreSQL pass skipped: TEST_DATABASE_URL is not set. Database tests run on SQLite only.");
}
