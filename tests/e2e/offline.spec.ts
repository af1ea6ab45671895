import { expect, newPerson, openLive, test } from "./fixtures";

const lostMessage = "Could not reach Upskill. Your text is kept.";

for (const width of [1280, 375]) {
  test.describe(`a bad connection at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test("a task link sent offline stays, Retry stores it once; a draft survives a reload", async ({
      browser,
      baseURL,
    }) => {
      const learner = await newPerson(browser, baseURL!, "Offline");
      const { page, context } = learner;
      await page.setViewportSize({ width, height: 900 });
      await openLive(page, "/dashboard");
      const input = page.getByRole("textbox", { name: "Task link" });
      const panel = page.getByRole("region", { name: "Task links" });

      // A draft is kept in this browser across a reload.
      await input.fill("https://github.com/offline/draft");
      await page.reload();
      await expect(input).toHaveValue("https://github.com/offline/draft");

      await input.fill("https://github.com/offline/one");
      await context.setOffline(true);
      await expect(page.getByRole("status").filter({ hasText: "You are offline." })).toBeVisible();
      await page.getByRole("button", { name: "Submit" }).click();
      await expect(panel.getByRole("alert").filter({ hasText: lostMessage })).toBeVisible();
      await expect(input).toHaveValue("https://github.com/offline/one");
      await expect(page.getByRole("navigation", { name: "Signed in" })).toBeVisible();

      await context.setOffline(false);
      await panel.getByRole("button", { name: "Retry" }).click();
      const list = page.getByRole("list", { name: "Submitted task links" });
      await expect(list.getByRole("link", { name: "https://github.com/offline/one" })).toHaveCount(1);
      await expect(input).toHaveValue("");
      await expect(panel.getByRole("alert").filter({ hasText: lostMessage })).toHaveCount(0);
      // Sent: the draft is gone after a reload, and the link is there once.
      await page.reload();
      await expect(input).toHaveValue("");
      await expect(list.getByRole("listitem")).toHaveCount(1);
      await context.close();
    });

    test("a server error in one panel leaves the header and the other panels working", async ({ browser, baseURL }) => {
      const learner = await newPerson(browser, baseURL!, "Failing");
      const { page, context } = learner;
      await page.setViewportSize({ width, height: 900 });
      await openLive(page, "/dashboard");
      // The profile's save fails on the server (500) once.
      let failed = 0;
      await page.route(
        (url) => url.pathname.endsWith(".data"),
        async (route) => {
          const body = route.request().postData() ?? "";
          if (route.request().method() === "POST" && body.includes("update-profile") && failed === 0) {
            failed += 1;
            return route.fulfill({ status: 500, body: "Unexpected Server Error" });
          }
          return route.fallback();
        },
      );
      const details = page.getByRole("region", { name: "Your details" });
      const phone = details.getByLabel("Phone");
      await phone.fill("9123456780");
      await details.getByRole("button", { name: "Save details" }).click();
      await expect(details.getByRole("alert").filter({ hasText: lostMessage })).toBeVisible();
      await expect(phone).toHaveValue("9123456780");
      await expect(page.getByRole("navigation", { name: "Signed in" })).toBeVisible();

      // Another panel still works.
      await page.getByRole("textbox", { name: "Task link" }).fill("https://github.com/failing/one");
      await page.getByRole("button", { name: "Submit" }).click();
      await expect(
        page.getByRole("list", { name: "Submitted task links" }).getByRole("link", { name: /failing\/one/ }),
      ).toBeVisible();

      // Retry saves the profile once the server answers.
      await details.getByRole("button", { name: "Retry" }).click();
      await expect(details.getByRole("alert").filter({ hasText: lostMessage })).toHaveCount(0);
      // Its answer before the reload: a reload while the retry is on its way would drop it.
      await expect(page.getByTestId("toast-status")).toHaveText("Your phone and course have been saved.");
      await page.reload();
      await expect(details.getByLabel("Phone")).toHaveValue("9123456780");
      await context.close();
    });
  });
}
