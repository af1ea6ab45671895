import fs from "node:fs/promises";
import AxeBuilder from "@axe-core/playwright";
import yauzl from "yauzl";
import { expect, password, test } from "./fixtures";

/** data.json from a downloaded archive. */
async function dataJsonOf(file: string): Promise<Record<string, unknown>> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true }, (error, opened) => (error ? reject(error) : resolve(opened))),
  );
  return new Promise((resolve, reject) => {
    zip.on("entry", (entry: yauzl.Entry) => {
      if (entry.fileName !== "data.json") return zip.readEntry();
      zip.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => resolve(JSON.parse(Buffer.concat(chunks).toString())));
      });
    });
    zip.on("end", () => reject(new Error("no data.json in the archive")));
    zip.readEntry();
  });
}

test("a learner downloads their data, deletes their account, and keeps it by signing in again", async ({
  learner,
  baseURL,
}) => {
  const { page, account } = learner;
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto("/settings");
    const section = page.getByRole("region", { name: "Your data" });
    await section.scrollIntoViewIfNeeded();
    await expect(section.getByRole("button", { name: "Delete my account" })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    expect((await new AxeBuilder({ page }).include("#data-heading").analyze()).violations).toEqual([]);
  }
  const section = page.getByRole("region", { name: "Your data" });

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    section.getByRole("link", { name: "Download my data" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^Upskill-data-.+\.zip$/);
  const data = await dataJsonOf(await download.path());
  expect(data.profile).toMatchObject({ email: account.email, username: account.username });
  expect(data.accountDeletion).toBeNull();

  // The typed word and the password are checked; nothing happens until both are right.
  await section.getByLabel("Password").fill("not-my-password");
  await section.getByLabel("Type DELETE to confirm").fill("DELETE");
  await section.getByRole("button", { name: "Delete my account" }).click();
  await expect(section.getByRole("alert")).toHaveText("That password is not right.");
  await expect(section.getByLabel("Password")).toBeFocused();
  await section.getByLabel("Password").fill(password);
  await section.getByRole("button", { name: "Delete my account" }).click();

  await expect(page.getByRole("heading", { name: "Your account will be deleted" })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  // Signed out: the dashboard asks for a sign-in.
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/auth=login/);

  // Signing in again keeps the account.
  const signIn = await page.request.post(`${baseURL}/api/auth/sign-in/email`, {
    data: { email: account.email, password },
    headers: { origin: baseURL! },
  });
  expect(signIn.status()).toBe(200);
  await page.goto("/dashboard");
  await expect(page.getByRole("heading", { name: `Welcome ${account.username}!` })).toBeVisible();
  const again = await page.request.get(`${baseURL}/api/my-data`);
  expect(again.status()).toBe(200);
  const file = test.info().outputPath("again.zip");
  await fs.writeFile(file, await again.body());
  expect((await dataJsonOf(file)).accountDeletion).toBeNull();
});
