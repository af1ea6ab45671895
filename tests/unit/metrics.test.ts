import { describe, expect, it } from "vitest";
import { countPageCache, observeRequest, renderMetrics } from "~/metrics/metrics.server";

const lines = async (prefix: string) =>
  (await renderMetrics()).body.split("\n").filter((line) => line.startsWith(prefix));

describe("request metrics", () => {
  it("writes the request histogram as Prometheus does: cumulative buckets up to +Inf, sum and count", async () => {
    for (const seconds of [0.0004, 0.003, 0.003, 0.2, 12]) observeRequest("/staff/learners/:id", "GET", 200, seconds);
    observeRequest("/staff/learners/:id", "POST", 403, 0.02);

    const get = '{route="/staff/learners/:id",method="GET",status="200"';
    expect(await lines(`http_request_duration_seconds_bucket${get}`)).toEqual([
      `http_request_duration_seconds_bucket${get},le="0.001"} 1`,
      `http_request_duration_seconds_bucket${get},le="0.005"} 3`,
      `http_request_duration_seconds_bucket${get},le="0.01"} 3`,
      `http_request_duration_seconds_bucket${get},le="0.025"} 3`,
      `http_request_duration_seconds_bucket${get},le="0.05"} 3`,
      `http_request_duration_seconds_bucket${get},le="0.1"} 3`,
      `http_request_duration_seconds_bucket${get},le="0.25"} 4`,
      `http_request_duration_seconds_bucket${get},le="0.5"} 4`,
      `http_request_duration_seconds_bucket${get},le="1"} 4`,
      `http_request_duration_seconds_bucket${get},le="2.5"} 4`,
      `http_request_duration_seconds_bucket${get},le="5"} 4`,
      `http_request_duration_seconds_bucket${get},le="10"} 4`,
      `http_request_duration_seconds_bucket${get},le="+Inf"} 5`,
    ]);
    expect(await lines(`http_request_duration_seconds_count${get}`)).toEqual([
      `http_request_duration_seconds_count${get}} 5`,
    ]);
    const [sum] = await lines(`http_request_duration_seconds_sum${get}`);
    expect(Number(sum!.split(" ")[1])).toBeCloseTo(12.2064, 6);
    expect(await lines('http_request_duration_seconds_count{route="/staff/learners/:id",method="POST"')).toEqual([
      'http_request_duration_seconds_count{route="/staff/learners/:id",method="POST",status="403"} 1',
    ]);
    expect((await renderMetrics()).body).toContain("# TYPE http_request_duration_seconds histogram");
  });

  it("counts page-cache hits and misses", async () => {
    countPageCache(true);
    countPageCache(true);
    countPageCache(false);
    expect(await lines("page_cache_requests_total{")).toEqual([
      'page_cache_requests_total{result="hit"} 2',
      'page_cache_requests_total{result="miss"} 1',
    ]);
  });
});
