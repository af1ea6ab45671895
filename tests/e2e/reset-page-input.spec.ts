import { expect, test } from "@playwright/test";

// The reset page's loader and action take their token and fields from anyone: what they can't
// use is a 4xx or an invalid link, never a server error.
test("a non-form body gets 400, and a token with control characters is just an invalid link", async ({
  request,
  baseURL,
}) => {
  const notAForm = await request.post("/reset-password.data", {
    headers: { "content-type": "text/plain", origin: baseURL! },
    data: "token=abc&password=x",
  });
  expect(notAForm.status()).toBe(400);

  const page = await request.get(`/reset-password?token=${encodeURIComponent("abc\u0000def")}`);
  expect(page.status()).toBe(200);
  expect(await page.text()).not.toContain('name="password"');
});
