import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, openLive, test, type Person } from "./fixtures";

// Unread counts per kind on the learner's dashboard, moved live by staff on the staff page in
// another browser context, and lowered by what the learner's popups show; long texts in a popup.

const widths = [1280, 375] as const;

/** The signed-in person's own user id, as better-auth reports it. */
async function userId(person: Person): Promise<string> {
  const session = await person.page.request.get("/api/auth/get-session");
  return ((await session.json()) as { user: { id: string } }).user.id;
}

const badge = (page: Page, kind: "task" | "certificate" | "offer" | "notice") =>
  page.getByTestId(`unread-badge-${kind}`);

/**
 * Sends one kind from the learner's staff page; returns when the staff member sees it sent
 * (the confirmation, and the item in "What was sent").
 */
async function sendFromStaffPage(staffPage: Page, kind: "Notice" | "Task" | "Certificate", html: string, text: string) {
  // One composer: the kind chosen, its text area, and Send naming the learner.
  await staffPage.getByLabel("Kind", { exact: true }).selectOption(kind.toLowerCase());
  await staffPage.getByLabel(kind === "Certificate" ? "Certificate note" : kind, { exact: true }).fill(html);
  await staffPage.getByRole("button", { name: new RegExp(`^Send ${kind} to `) }).click();
  await expect(staffPage.getByTestId("toast-status")).toHaveText(`${kind} sent successfully!`);
  await expect(staffPage.getByTestId("sent-item").filter({ hasText: text })).toHaveCount(1);
  return Date.now();
}

for (const width of widths) {
  test(`unread counts per kind rise live when staff send and fall once a popup shows them (${width} px)`, async ({
    learner,
    admin,
  }) => {
    await learner.page.setViewportSize({ width, height: 800 });
    await admin.page.setViewportSize({ width, height: 900 });
    const learnerId = await userId(learner);
    await openLive(learner.page, "/dashboard");
    await openLive(admin.page, `/staff/learners/${learnerId}`);
    const page = learner.page;
    // Set once: still there at the end means the page was never reloaded.
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    for (const kind of ["task", "certificate", "offer", "notice"] as const)
      await expect(badge(page, kind)).toHaveText("0");

    // Each kind's badge rises in the learner's open tab, without a reload, within a second.
    const rises: number[] = [];
    for (const [kind, label, text] of [
      ["notice", "Notice", "Lab closed on Friday"],
      ["notice", "Notice", "Bring your laptop"],
      ["task", "Task", "Build a landing page"],
      ["certificate", "Certificate", "Module 1 complete"],
    ] as const) {
      const before = Number(await badge(page, kind).textContent());
      const sentAt = await sendFromStaffPage(admin.page, label, `<p>${text}</p>`, text);
      await expect(badge(page, kind)).toHaveText(String(before + 1), { timeout: 1_000 });
      rises.push(Date.now() - sentAt);
    }
    await admin.page.getByLabel("Offer letter").fill("<p>Welcome aboard as an intern.</p>");
    await admin.page.getByRole("button", { name: "Save Offer Letter" }).click();
    await expect(admin.page.getByTestId("toast-status")).toHaveText("Offer letter saved.");
    await expect(badge(page, "offer")).toHaveText("1", { timeout: 1_000 });
    // The counts are in the buttons' names, not only in the red badge.
    for (const name of [
      "Tasks 1 unread",
      "Training Certificate 1 unread",
      "Offer letter 1 unread",
      "Notification 2 unread",
    ]) {
      await expect(page.getByRole("button", { name, exact: true })).toBeVisible();
    }
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

    // Opening Tasks reads the task, and nothing else.
    await page.getByRole("button", { name: /^Tasks \d+ unread$/ }).click();
    const tasks = page.getByRole("dialog", { name: "Tasks" });
    const task = tasks.getByRole("listitem");
    await expect(task).toContainText("Build a landing page");
    await expect(task.getByText("New", { exact: true })).toBeVisible();
    await expect(task).toContainText(`From ${admin.account.username}, `);
    await expect(task.locator("time")).toBeVisible();
    await expect(badge(page, "task")).toHaveText("0");
    await page.keyboard.press("Escape");
    await expect(tasks).toBeHidden();
    await expect(badge(page, "notice")).toHaveText("2");
    await expect(badge(page, "certificate")).toHaveText("1");

    // Notifications: both new; one sent while the popup is open is shown, labelled, and read.
    await page.getByRole("button", { name: /^Notification \d+ unread$/ }).click();
    const notices = page.getByRole("dialog", { name: "Notifications" });
    await expect(notices.getByRole("listitem")).toHaveCount(2);
    await expect(notices.getByText("New", { exact: true })).toHaveCount(2);
    await expect(badge(page, "notice")).toHaveText("0");
    await sendFromStaffPage(admin.page, "Notice", "<p>Room 4 today</p>", "Room 4 today");
    await expect(notices.getByRole("listitem")).toHaveCount(3, { timeout: 1_000 });
    await expect(notices.getByRole("listitem").first()).toContainText("Room 4 today");
    await expect(notices.getByText("New", { exact: true })).toHaveCount(3);
    // The open popup is accessible.
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
    await page.keyboard.press("Escape");
    await expect(badge(page, "notice")).toHaveText("0");

    // Opened again, nothing is new any more.
    await page.getByRole("button", { name: /^Notification \d+ unread$/ }).click();
    await expect(notices.getByRole("listitem")).toHaveCount(3);
    await expect(notices.getByText("New", { exact: true })).toHaveCount(0);
    await page.keyboard.press("Escape");

    // The offer letter: read once shown; replaced, it is unread again.
    await page.getByRole("button", { name: /^Offer letter \d+ unread$/ }).click();
    const offer = page.getByRole("dialog", { name: "Offer letter" });
    await expect(offer).toContainText("Welcome aboard as an intern.");
    await expect(offer).toContainText(`From ${admin.account.username}, `);
    await expect(badge(page, "offer")).toHaveText("0");
    await page.keyboard.press("Escape");
    await admin.page.getByLabel("Offer letter").fill("<p>Welcome aboard, with a stipend.</p>");
    await admin.page.getByRole("button", { name: "Save Offer Letter" }).click();
    await expect(badge(page, "offer")).toHaveText("1", { timeout: 1_000 });

    // Staff see what was read, of every kind.
    await admin.page.reload();
    const sent = admin.page.getByTestId("sent-item");
    await expect(sent.filter({ hasText: "Module 1 complete" })).toContainText("Not read yet.");
    await expect(sent.filter({ hasText: "Build a landing page" })).toContainText(/Read \d/);
    await expect(sent.filter({ hasText: "Room 4 today" })).toContainText(/Read \d/);
    await expect(admin.page.getByTestId("sent-offer-letter")).toContainText("Not read yet.");
    expect(await page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument)).toBe(true);
    console.log(`${width} px: badges rose ${rises.join(", ")} ms after staff saw "sent"`);
  });

  test(`a long text scrolls inside its popup under the title and Close, its paragraphs and line breaks spaced (${width} px)`, async ({
    learner,
    admin,
  }) => {
    await learner.page.setViewportSize({ width, height: 700 });
    const learnerId = await userId(learner);
    await openLive(learner.page, "/dashboard");
    await openLive(admin.page, `/staff/learners/${learnerId}`);
    const paragraphs = Array.from(
      { length: 40 },
      (_, i) => `<p>Paragraph ${i + 1}: bring your laptop and charger; sessions start at ten sharp.</p>`,
    ).join("");
    const link = `https://example.com/${"long-unbroken-path-".repeat(8)}end`;
    await sendFromStaffPage(
      admin.page,
      "Task",
      `${paragraphs}<p>Line one<br>Line two<br>Line three</p><p>${link}</p>`,
      "Paragraph 40:",
    );
    const page = learner.page;
    await expect(badge(page, "task")).toHaveText("1", { timeout: 1_000 });
    await page.getByRole("button", { name: /^Tasks \d+ unread$/ }).click();
    const dialog = page.getByRole("dialog", { name: "Tasks" });
    const body = dialog.getByTestId("popup-body");
    const close = dialog.getByRole("button", { name: "Close Tasks" });
    await expect(dialog.getByText("Paragraph 1:", { exact: false })).toBeVisible();

    // The dialog fits the window; its body scrolls, not the page.
    const viewport = page.viewportSize()!;
    const box = (await dialog.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
    const sizes = await body.evaluate((el) => ({
      scroll: el.scrollHeight,
      client: el.clientHeight,
      wide: el.scrollWidth > el.clientWidth,
    }));
    expect(sizes.scroll).toBeGreaterThan(sizes.client * 2);
    expect(sizes.wide).toBe(false);
    await body.hover();
    await page.mouse.wheel(0, 20_000);
    const last = dialog.getByText(link);
    await expect(last).toBeInViewport();
    // Header and Close stay in view, and Close still closes.
    await expect(dialog.getByRole("heading", { name: "Tasks" })).toBeInViewport();
    await expect(close).toBeInViewport();

    // Paragraphs have space between them; line breaks start new lines.
    const gaps = await dialog.locator("li p").evaluateAll((ps) => {
      const texts = ps.filter((p) => p.textContent?.startsWith("Paragraph "));
      const [a, b] = [texts[0]!.getBoundingClientRect(), texts[1]!.getBoundingClientRect()];
      const broken = ps.find((p) => p.textContent?.startsWith("Line one"))!;
      const lineHeight = Number.parseFloat(getComputedStyle(broken).lineHeight);
      return { between: b.top - a.bottom, brokenHeight: broken.getBoundingClientRect().height, lineHeight };
    });
    expect(gaps.between).toBeGreaterThanOrEqual(8);
    expect(gaps.brokenHeight).toBeGreaterThanOrEqual(gaps.lineHeight * 2.9);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
    await close.click();
    await expect(dialog).toBeHidden();
  });
}
