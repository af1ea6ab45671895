import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { encodeStatusList, isStatusSet, minimumListBits } from "~/documents/status-list.server";

const bytesOf = (encodedList: string) => gunzipSync(Buffer.from(encodedList.slice(1), "base64url"));

describe("the Bitstring Status List encoding", () => {
  it("is multibase base64url of GZIP, at least 131,072 bits, all clear when nothing is revoked", () => {
    const encoded = encodeStatusList([]);
    expect(encoded).toMatch(/^u[A-Za-z0-9_-]+$/);
    const bytes = bytesOf(encoded);
    expect(bytes.length * 8).toBe(minimumListBits);
    expect(bytes.every((byte) => byte === 0)).toBe(true);
  });

  it("puts index 0 at the first byte's most significant bit, as the spec's left-to-right order", () => {
    const bytes = bytesOf(encodeStatusList([0, 9, 15]));
    expect([...bytes.subarray(0, 3)]).toEqual([0b1000_0000, 0b0100_0001, 0]);
  });

  it("reads back exactly the indexes set, and grows by whole 131,072-bit blocks past the end", () => {
    const revoked = [1, 7, 8, 4_095, 131_071];
    const encoded = encodeStatusList(revoked);
    const bytes = bytesOf(encoded);
    const set: number[] = [];
    for (let index = 0; index < bytes.length * 8; index += 1) {
      if (bytes[index >> 3]! & (0x80 >> (index & 7))) set.push(index);
    }
    expect(set).toEqual(revoked);
    expect([0, 1, 2, 7, 8, 4_095, 4_096, 131_071].map((index) => isStatusSet(encoded, index))).toEqual([
      false,
      true,
      false,
      true,
      true,
      true,
      false,
      true,
    ]);
    const grown = encodeStatusList([131_072]);
    expect(bytesOf(grown).length * 8).toBe(2 * minimumListBits);
    expect(isStatusSet(grown, 131_072)).toBe(true);
    expect(() => isStatusSet(encoded, minimumListBits)).toThrow(/outside the list/);
  });

  it("refuses indexes that are not whole non-negative numbers, and lists that are not this encoding", () => {
    expect(() => encodeStatusList([-1])).toThrow(RangeError);
    expect(() => encodeStatusList([1.5])).toThrow(RangeError);
    expect(() => isStatusSet("zABC", 0)).toThrow(/base64url/);
  });
});
