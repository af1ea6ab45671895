// The working-day rows of bench/signed-in.ts: signed-in pages read while a share of the requests
// write, as on a real day (learners saving their email settings, each within their 60 changes a
// minute: the writes rotate over every learner). The writes go as the dashboard's form sends them
// (a POST of its loader data address, with the intent and the Origin the server accepts).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export interface WorkingDayRow {
  label: string;
  /** The addresses read, in turn. */
  paths: string[];
  /** Whose sessions read them, in turn. */
  readers: string[];
  /** One request in this many writes (0: none). */
  writeEvery: number;
}

/** The rows, for these learners' and this staff member's session cookies. */
export function workingDayRows(learners: string[], staff: string): WorkingDayRow[] {
  const mix = ["/dashboard", "/dashboard.data"];
  const staffPages = ["/staff", "/staff.data", "/staff?q=bench", "/staff.data?q=bench&size=50", "/staff?page=2"];
  return [
    { label: "learners' mix, no writes", paths: mix, readers: learners, writeEvery: 0 },
    { label: "learners' mix, 0.5 % writing", paths: mix, readers: learners, writeEvery: 200 },
    { label: "learners' mix, 2 % writing", paths: mix, readers: learners, writeEvery: 50 },
    { label: "learners' mix, 10 % writing", paths: mix, readers: learners, writeEvery: 10 },
    { label: "/dashboard HTML, 2 % writing", paths: ["/dashboard"], readers: learners, writeEvery: 50 },
    { label: "/dashboard HTML, no writes", paths: ["/dashboard"], readers: learners, writeEvery: 0 },
    { label: "staff pages, learners 2 % writing", paths: staffPages, readers: [staff], writeEvery: 50 },
  ];
}

/** Learners' sessions needed so that no one passes 60 changes a minute at this rate of writes. */
export function writersFor(requestsPerSecond: number, writeEvery: number): number {
  return writeEvery === 0 ? 0 : Math.ceil((requestsPerSecond / writeEvery) * 1.25);
}

/**
 * wrk's Lua script for a row, every request with `headers`: reads rotate over the readers and
 * paths; every `writeEvery`-th request is a save of the next learner's email settings, each
 * learner's saves alternating between digest and immediate (a save that changed nothing would
 * leave their pages as they were, and the render after it would find the page already made).
 */
export function workingDayScript(
  row: WorkingDayRow,
  writers: string[],
  origin: string,
  headers: Record<string, string> = {},
): string {
  const list = (values: string[]) => values.map((value) => JSON.stringify(value)).join(",\n  ");
  const body = (mode: string) =>
    JSON.stringify(
      `intent=save-email-preferences&notice=immediate&task=${mode}&certificate=immediate&document=immediate`,
    );
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "upskill-wrk-")), "working-day.lua");
  fs.writeFileSync(
    file,
    `local readers = {\n  ${list(row.readers)}\n}
local paths = {\n  ${list(row.paths)}\n}
local writers = {\n  ${list(writers.length > 0 ? writers : [""])}\n}
local every = ${row.writeEvery}
${Object.entries(headers)
  .map(([name, value]) => `wrk.headers[${JSON.stringify(name)}] = ${JSON.stringify(value)}`)
  .join("\n")}
local n, r, w = 0, 0, 0
request = function()
  n = n + 1
  if every > 0 and n % every == 0 then
    w = w % #writers + 1
    wrk.headers["Cookie"] = writers[w]
    wrk.headers["Origin"] = ${JSON.stringify(origin)}
    wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
    -- Each writer's saves alternate, so that each one changes what their pages show.
    local body = ${body("digest")}
    if (w + math.floor((n / every - 1) / #writers)) % 2 == 0 then body = ${body("immediate")} end
    return wrk.format("POST", "/settings.data", nil, body)
  end
  r = r % #readers + 1
  wrk.headers["Cookie"] = readers[r]
  wrk.headers["Origin"] = nil
  wrk.headers["Content-Type"] = nil
  return wrk.format("GET", paths[n % #paths + 1])
end
`,
  );
  return file;
}
