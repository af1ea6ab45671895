import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { createHash } from "node:crypto";
import { afterEach, beforeEach, expect, it } from "vitest";
import { PutObjectCommand } from "@aws-sdk/client-s3";
import { loadConfig } from "~/config/config.server";
import { S3Storage } from "~/uploads/s3-storage.server";
import { LocalDiskStorage, type UploadStorage } from "~/uploads/storage.server";
import { describeEachStorage, type TestStorageHandle } from "../support/storages";

const sha256 = (data: Buffer) => createHash("sha256").update(data).digest("hex");

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** Bytes that differ along their length, so a misplaced part would show in the hash. */
function patterned(size: number): Buffer {
  const data = Buffer.alloc(size);
  for (let i = 0; i < size; i++) data[i] = (i * 131 + (i >> 11)) & 0xff;
  return data;
}

describeEachStorage("upload storage", (kind) => {
  let dataDir: string;
  let handle: TestStorageHandle;
  let storage: UploadStorage;

  /** The store the app builds from these settings (as buildServices does). */
  const build = (env: Record<string, string>): UploadStorage => {
    const config = loadConfig({ DATA_DIR: dataDir, ...env });
    return config.storage ? new S3Storage(config.storage) : new LocalDiskStorage(path.join(config.dataDir, "uploads"));
  };

  beforeEach(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "upskill-storage-"));
    handle = await kind.open(dataDir, { prefix: "site-a" });
    storage = build(handle.env);
  });
  afterEach(async () => {
    storage.close();
    await handle.dispose();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("puts a buffer and a stream, and gives back the same bytes with their size", async () => {
    const small = Buffer.from("%PDF-1.7 a small resume");
    const stored = await storage.put("resumes/learner-1/abc.pdf", small);
    expect(stored.size).toBe(small.length);
    expect(stored.modifiedAt.getTime()).toBeGreaterThan(Date.now() - 60_000);

    // Larger than one part: a multipart upload on S3, in pieces of odd sizes.
    const large = patterned(9 * 1024 * 1024 + 123);
    const pieces = [large.subarray(0, 1000), large.subarray(1000, 5_000_000), large.subarray(5_000_000)];
    expect((await storage.put("photos/big.webp", Readable.from(pieces))).size).toBe(large.length);

    const got = await storage.get("photos/big.webp");
    expect(got?.size).toBe(large.length);
    expect(sha256(await readAll(got!.stream))).toBe(sha256(large));
    const again = await storage.get("resumes/learner-1/abc.pdf");
    expect((await readAll(again!.stream)).equals(small)).toBe(true);
    expect(await storage.stat("resumes/learner-1/abc.pdf")).toMatchObject({ size: small.length });
  });

  it("stores a finished local file and leaves the source in place", async () => {
    const file = path.join(dataDir, "finished.pdf");
    const data = patterned(300_000);
    fs.writeFileSync(file, data);
    expect((await storage.putFile("resumes/l/x.pdf", file)).size).toBe(data.length);
    expect(fs.existsSync(file)).toBe(true);
    expect(sha256(await readAll((await storage.get("resumes/l/x.pdf"))!.stream))).toBe(sha256(data));
  });

  it("answers null for a missing key, and deleting one (or one twice) is fine", async () => {
    expect(await storage.get("photos/missing.webp")).toBeNull();
    expect(await storage.stat("photos/missing.webp")).toBeNull();
    await storage.delete("photos/missing.webp");
    await storage.put("photos/here.webp", Buffer.from("x"));
    await storage.delete("photos/here.webp");
    await storage.delete("photos/here.webp");
    expect(await storage.stat("photos/here.webp")).toBeNull();
    expect(await handle.list()).toEqual([]);
  });

  it("replaces an object whole when put again under its key", async () => {
    await storage.put("photos/same.webp", Buffer.from("first version"));
    await storage.put("photos/same.webp", Readable.from([Buffer.from("second")]));
    expect((await readAll((await storage.get("photos/same.webp"))!.stream)).toString()).toBe("second");
  });

  it("leaves nothing behind when a stream fails midway, small or past a part", async () => {
    for (const [key, before] of [
      ["photos/small-failure.webp", 1000],
      ["photos/large-failure.webp", 9 * 1024 * 1024],
    ] as const) {
      let sent = 0;
      const failing = new Readable({
        read() {
          if (sent >= before) {
            this.destroy(new Error("the client went away"));
            return;
          }
          const chunk = patterned(Math.min(256 * 1024, before - sent));
          sent += chunk.length;
          this.push(chunk);
        },
      });
      await expect(storage.put(key, failing)).rejects.toThrow();
      expect(await storage.stat(key), key).toBeNull();
    }
    // Nothing at all: no temporary file on disk, no visible object in the bucket.
    expect(await handle.list()).toEqual([]);
  });

  it("keeps an earlier object whole when replacing it fails", async () => {
    await storage.put("photos/kept.webp", Buffer.from("the good one"));
    const failing = new Readable({
      read() {
        this.destroy(new Error("broken"));
      },
    });
    await expect(storage.put("photos/kept.webp", failing)).rejects.toThrow();
    expect((await readAll((await storage.get("photos/kept.webp"))!.stream)).toString()).toBe("the good one");
  });

  it("refuses keys that could leave its root or prefix", async () => {
    for (const key of ["../etc/passwd", "photos/../../x", "/photos/a", "photos/a b", "photos", ""]) {
      await expect(storage.put(key, Buffer.from("x")), key).rejects.toThrow(/invalid storage key/);
      await expect(storage.get(key), key).rejects.toThrow(/invalid storage key/);
    }
  });

  it("keeps every object under the configured prefix, and says when it is ready", async () => {
    await storage.put("photos/a.webp", Buffer.from("a"));
    await storage.put("resumes/l/b.pdf", Buffer.from("b"));
    // handle.list() fails for an object outside the prefix.
    expect(await handle.list()).toEqual(["uploads/photos/a.webp", "uploads/resumes/l/b.pdf"]);
    await expect(storage.ready()).resolves.toBeUndefined();
  });

  it("lists every stored key, but neither unfinished uploads nor writes in progress", async () => {
    await storage.put("photos/a.webp", Buffer.from("a"));
    await storage.put("resumes/l/b.pdf", Buffer.from("b"));
    if (storage instanceof S3Storage) {
      // tus's unfinished upload under the prefix, and another site's object beside it.
      const { bucket, prefix } = storage.settings;
      for (const Key of [`${prefix}incoming/0123abcd`, `${prefix}incoming/0123abcd.info`, "site-b/photos/c.webp"]) {
        await storage.client.send(new PutObjectCommand({ Bucket: bucket, Key, Body: "x" }));
      }
    } else {
      fs.writeFileSync(path.join(dataDir, "uploads", "photos", "c.webp.0a1b2c3d4e5f.partial"), "half");
    }
    const keys: string[] = [];
    for await (const key of storage.list()) keys.push(key);
    expect(keys.sort()).toEqual(["photos/a.webp", "resumes/l/b.pdf"]);
  });

  it("is not ready when its bucket or directory can't be used", async () => {
    let broken: UploadStorage;
    if (kind.kind === "s3") {
      broken = build({ STORAGE_URL: handle.env.STORAGE_URL!.replace(/@([^/]+)\/[^/?]+/, "@$1/no-such-bucket") });
    } else {
      // A volume that went away under the running server.
      broken = new LocalDiskStorage(path.join(dataDir, "gone"));
      fs.rmSync(path.join(dataDir, "gone"), { recursive: true });
    }
    try {
      await expect(broken.ready()).rejects.toThrow();
    } finally {
      broken.close();
    }
  });
});
