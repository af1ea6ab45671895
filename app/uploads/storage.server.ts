import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

export interface StoredObject {
  size: number;
  modifiedAt: Date;
}

/**
 * Where uploaded files live, by key ("resumes/…", "photos/…"): the local disk under DATA_DIR,
 * or an S3-compatible bucket (S3Storage) when STORAGE_URL is set. Writes are all-or-nothing: a
 * reader never sees a half-written object.
 */
export interface UploadStorage {
  put(key: string, data: Buffer | Readable): Promise<StoredObject>;
  /** Stores a finished local file, leaving the source in place (a hard link on the same disk). */
  putFile(key: string, file: string): Promise<StoredObject>;
  get(key: string): Promise<{ stream: Readable; size: number } | null>;
  stat(key: string): Promise<StoredObject | null>;
  /** Every stored key, in no particular order (backups); never an unfinished upload's. */
  list(): AsyncIterable<string>;
  /** Deletes the object; a missing one is not an error. */
  delete(key: string): Promise<void>;
  /** Resolves when the store can be written to (the readiness check); throws why not. */
  ready(): Promise<void>;
  /** Lets go of connections (on shutdown). */
  close(): void;
}

/** Keys are ours, never a client's, but a bad one must still never leave the root. */
const keyPattern = /^[a-z]+(\/[A-Za-z0-9_-]+)*\/[A-Za-z0-9_-]+(\.[a-z0-9]+)?$/;

export function isStorageKey(key: string): boolean {
  return keyPattern.test(key);
}

export function assertKey(key: string): void {
  if (!isStorageKey(key)) throw new Error(`invalid storage key: ${key}`);
}

/** A new random key under a prefix: 128 bits, so URLs made from it cannot be guessed. */
export function newStorageKey(prefix: string, extension: string): string {
  return `${prefix}/${randomBytes(16).toString("hex")}${extension}`;
}

export class LocalDiskStorage implements UploadStorage {
  constructor(readonly root: string) {
    fs.mkdirSync(root, { recursive: true });
  }

  private file(key: string): string {
    assertKey(key);
    return path.join(this.root, ...key.split("/"));
  }

  private async temp(target: string): Promise<string> {
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    return `${target}.${randomBytes(6).toString("hex")}.partial`;
  }

  async put(key: string, data: Buffer | Readable): Promise<StoredObject> {
    const target = this.file(key);
    const temp = await this.temp(target);
    try {
      if (Buffer.isBuffer(data)) await fs.promises.writeFile(temp, data, { flag: "wx" });
      else await pipeline(data, fs.createWriteStream(temp, { flags: "wx" }));
      await fs.promises.rename(temp, target);
    } catch (error) {
      await fs.promises.rm(temp, { force: true });
      throw error;
    }
    return (await this.stat(key))!;
  }

  async putFile(key: string, file: string): Promise<StoredObject> {
    const target = this.file(key);
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    try {
      await fs.promises.link(file, target);
    } catch (error) {
      // Another disk (or no hard links): copy through a temporary name.
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "EXDEV" && code !== "EPERM" && code !== "ENOTSUP") throw error;
      await this.put(key, fs.createReadStream(file));
    }
    return (await this.stat(key))!;
  }

  async get(key: string): Promise<{ stream: Readable; size: number } | null> {
    const file = this.file(key);
    try {
      const handle = await fs.promises.open(file, "r");
      const { size } = await handle.stat();
      return { stream: handle.createReadStream(), size };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    }
  }

  async stat(key: string): Promise<StoredObject | null> {
    try {
      const stats = await fs.promises.stat(this.file(key));
      return { size: stats.size, modifiedAt: stats.mtime };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    }
  }

  async *list(): AsyncIterable<string> {
    // A write in progress is "<key>.<hex>.partial", which is no key: skipped.
    for await (const entry of await fs.promises.opendir(this.root, { recursive: true })) {
      if (!entry.isFile()) continue;
      const key = path.relative(this.root, path.join(entry.parentPath, entry.name)).split(path.sep).join("/");
      if (isStorageKey(key)) yield key;
    }
  }

  async delete(key: string): Promise<void> {
    await fs.promises.rm(this.file(key), { force: true });
  }

  async ready(): Promise<void> {
    await fs.promises.access(this.root, fs.constants.W_OK);
  }

  close(): void {
    // Nothing is held open between calls.
  }
}
