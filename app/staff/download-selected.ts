/**
 * Downloads the CSV of exactly these learners: their ids (up to 500, too many for an address)
 * are posted to /staff/learners.csv and the file the answer carries is saved. A refusal comes
 * back as its message (and, when learners are gone, their ids) for the page to show in place,
 * which a plain form post would replace the page with. Not a change: nothing but the audit row
 * is written, so it is not one of `useAction`'s.
 */
export async function downloadSelected(
  learnerIds: string[],
): Promise<{ ok: true; count: number } | { ok: false; message: string; gone?: string[] }> {
  let response: Response;
  try {
    response = await fetch("/staff/learners.csv", {
      method: "POST",
      body: new URLSearchParams({ learnerIds: learnerIds.join(",") }),
    });
  } catch {
    return { ok: false, message: "Could not reach Upskill. Please try again." };
  }
  if (!response.ok) {
    const answer = (await response.json().catch(() => null)) as { message?: string; gone?: string[] } | null;
    return { ok: false, message: answer?.message ?? "The export failed. Please try again.", gone: answer?.gone };
  }
  const name = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ?? "learners.csv";
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file once the click's task has run.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return { ok: true, count: learnerIds.length };
}
