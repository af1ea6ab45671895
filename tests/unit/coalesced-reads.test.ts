import { describe, expect, it } from "vitest";
import { coalescedReadLimit, coalescedReads } from "~/db/coalesced-reads.server";

/** A read whose every call is recorded and answered when the test says so. */
function controlledRead() {
  const calls: { keys: string[]; answer: () => void; fail: (error: Error) => void }[] = [];
  const read = coalescedReads<string>(
    (keys) =>
      new Promise((resolve, reject) =>
        calls.push({
          keys,
          answer: () => resolve(new Map(keys.filter((key) => key !== "gone").map((key) => [key, `row of ${key}`]))),
          fail: reject,
        }),
      ),
  );
  return { calls, read };
}

describe("coalesced reads", () => {
  it("sends a read at once when none is in flight", async () => {
    const { calls, read } = controlledRead();
    const answer = read("a");
    expect(calls.map((call) => call.keys)).toEqual([["a"]]);
    calls[0]!.answer();
    expect(await answer).toBe("row of a");
  });

  it("carries every key asked during a read in the next one, never in the read already sent", async () => {
    const { calls, read } = controlledRead();
    const first = read("a");
    const asked = [read("b"), read("c"), read("b"), read("gone")];
    expect(calls).toHaveLength(1);
    calls[0]!.answer();
    expect(await first).toBe("row of a");
    expect(calls.map((call) => call.keys)).toEqual([["a"], ["b", "c", "gone"]]);
    calls[1]!.answer();
    expect(await Promise.all(asked)).toEqual(["row of b", "row of c", "row of b", undefined]);
    // Idle again: the next read goes at once.
    const later = read("d");
    expect(calls).toHaveLength(3);
    calls[2]!.answer();
    expect(await later).toBe("row of d");
  });

  it("fails the callers of a failed read only, and goes on with the next", async () => {
    const { calls, read } = controlledRead();
    const first = read("a");
    const second = read("b");
    calls[0]!.fail(new Error("connection lost"));
    await expect(first).rejects.toThrow("connection lost");
    await Promise.resolve();
    expect(calls.map((call) => call.keys)).toEqual([["a"], ["b"]]);
    calls[1]!.answer();
    expect(await second).toBe("row of b");
  });

  it("carries at most the limit of keys in one read", async () => {
    const { calls, read } = controlledRead();
    const first = read("first");
    const many = Array.from({ length: coalescedReadLimit + 3 }, (_, i) => read(`k${i}`));
    calls[0]!.answer();
    await first;
    expect(calls[1]!.keys).toHaveLength(coalescedReadLimit);
    calls[1]!.answer();
    await Promise.resolve();
    await Promise.resolve();
    expect(calls[2]!.keys).toEqual([
      `k${coalescedReadLimit}`,
      `k${coalescedReadLimit + 1}`,
      `k${coalescedReadLimit + 2}`,
    ]);
    calls[2]!.answer();
    expect(await Promise.all(many)).toHaveLength(coalescedReadLimit + 3);
  });
});
