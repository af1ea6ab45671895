import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import {
  AbortMultipartUploadCommand,
  DeleteObjectsCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  ListPartsCommand,
} from "@aws-sdk/client-s3";
import { FileStore } from "@tus/file-store";
import { S3Store, type MetadataValue } from "@tus/s3-store";
import type { DataStore, KvStore } from "@tus/server";
import type { ByteSource } from "./file-signature.server";
import { incomingDirectory, isMissing, s3ClientConfig, type S3Storage } from "./s3-storage.server";
import type { StoredObject, UploadStorage } from "./storage.server";

/**
 * Where tus keeps resume uploads until their last byte: a tus data store, and the few things
 * the app does with an upload besides. Uploads are named by a public id (32 hex digits, in the
 * upload's URL and the resume_upload table); the store may know them by a longer name.
 */
export interface IncomingUploads {
  datastore: DataStore;
  /** The store's name for an upload. */
  storeId(uploadId: string): string;
  /** The public id of the store's upload (the inverse of storeId). */
  uploadId(storeId: string): string;
  /** Reads a finished upload's bytes (to check its signature). */
  withBytes<T>(uploadId: string, read: (source: ByteSource) => Promise<T>): Promise<T>;
  /** Stores a finished upload in upload storage under key; the upload itself stays. */
  keep(uploadId: string, key: string): Promise<StoredObject>;
  /** Deletes whatever the upload left (data, tus's metadata, parts); a missing one is fine. */
  remove(uploadId: string): Promise<void>;
  /** Every upload present, with when it last received bytes (ms since the epoch). */
  list(): Promise<Array<{ uploadId: string; touchedAt: number }>>;
}

export const uploadIdPattern = /^[0-9a-f]{32}$/;

export const newUploadId = () => randomBytes(16).toString("hex");

/** On the local disk: @tus/file-store in a directory beside the storage (finishing is a hard link). */
export function diskIncomingUploads(directory: string, storage: UploadStorage): IncomingUploads {
  fs.mkdirSync(directory, { recursive: true });
  const file = (uploadId: string) => path.join(directory, uploadId);
  return {
    datastore: new FileStore({ directory }),
    storeId: (uploadId) => uploadId,
    uploadId: (storeId) => storeId,
    async withBytes(uploadId, read) {
      const handle = await fs.promises.open(file(uploadId), "r");
      try {
        const { size } = await handle.stat();
        return await read({
          size,
          async read(position, length) {
            const buffer = Buffer.alloc(Math.max(0, Math.min(length, size - position)));
            await handle.read(buffer, 0, buffer.length, position);
            return buffer;
          },
        });
      } finally {
        await handle.close();
      }
    },
    keep: (uploadId, key) => storage.putFile(key, file(uploadId)),
    async remove(uploadId) {
      await Promise.all(
        [uploadId, `${uploadId}.json`].map((name) => fs.promises.rm(path.join(directory, name), { force: true })),
      );
    },
    async list() {
      const touched = new Map<string, number>();
      for (const name of await fs.promises.readdir(directory)) {
        const uploadId = name.replace(/\.json$/, "");
        if (!uploadIdPattern.test(uploadId)) continue;
        const stats = await fs.promises.stat(path.join(directory, name)).catch(() => null);
        touched.set(uploadId, Math.max(touched.get(uploadId) ?? 0, stats?.mtimeMs ?? 0));
      }
      return [...touched].map(([uploadId, touchedAt]) => ({ uploadId, touchedAt }));
    },
  };
}

/**
 * In the bucket: @tus/s3-store keeps each upload as an S3 multipart upload under
 * `<prefix>incoming/<id>` (with `<id>.info`, tus's metadata, and `<id>.part`, bytes short of
 * a part), so any instance can take the next PATCH. The finished object is copied to the
 * resume's key inside the bucket.
 */
export function s3IncomingUploads(storage: S3Storage): IncomingUploads {
  const { bucket, prefix } = storage.settings;
  const client = storage.client;
  const directory = `${prefix}${incomingDirectory}`;
  const cache = new BoundedKvStore<MetadataValue>(1_000);
  const storeId = (uploadId: string) => `${directory}${uploadId}`;
  return {
    datastore: new S3Store({
      partSize: 8 * 1024 * 1024,
      cache,
      s3ClientConfig: { ...s3ClientConfig(storage.settings), bucket },
    }),
    storeId,
    uploadId: (id) => id.slice(directory.length),
    async withBytes(uploadId, read) {
      const key = storeId(uploadId);
      const stat = await storage.statObject(key);
      if (!stat) throw new Error(`finished upload ${uploadId} is missing from the bucket`);
      return read({ size: stat.size, read: (position, length) => storage.readRange(key, position, length) });
    },
    keep: (uploadId, key) => storage.copy(storeId(uploadId), key),
    async remove(uploadId) {
      const key = storeId(uploadId);
      const multipart = await multipartUploadId(key);
      if (multipart) {
        await client
          .send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: multipart }))
          .catch((error: unknown) => {
            // Completed (the finished object is deleted below) or already aborted.
            if (!isMissing(error) && (error as { name?: string }).name !== "NoSuchUpload") throw error;
          });
      }
      await client.send(
        new DeleteObjectsCommand({
          Bucket: bucket,
          Delete: { Objects: [key, `${key}.info`, `${key}.part`].map((Key) => ({ Key })), Quiet: true },
        }),
      );
      await cache.delete(key);
    },
    async list() {
      const touched = new Map<string, number>();
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: directory, ContinuationToken: token }),
        );
        for (const object of page.Contents ?? []) {
          const uploadId = (object.Key ?? "").slice(directory.length).replace(/\.(info|part)$/, "");
          if (!uploadIdPattern.test(uploadId)) continue;
          const at = object.LastModified?.getTime() ?? 0;
          touched.set(uploadId, Math.max(touched.get(uploadId) ?? 0, at));
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      // Whole parts are not objects of their own: an upload that looks idle may still have
      // received one lately.
      for (const [uploadId, at] of touched) {
        const key = storeId(uploadId);
        const multipart = await multipartUploadId(key);
        if (!multipart) continue;
        const parts = await client
          .send(new ListPartsCommand({ Bucket: bucket, Key: key, UploadId: multipart }))
          .catch(() => null);
        for (const part of parts?.Parts ?? []) {
          touched.set(uploadId, Math.max(touched.get(uploadId) ?? at, part.LastModified?.getTime() ?? 0));
        }
      }
      return [...touched].map(([uploadId, touchedAt]) => ({ uploadId, touchedAt }));
    },
  };

  /** The S3 multipart upload behind a tus upload, named in its .info object's metadata. */
  async function multipartUploadId(key: string): Promise<string | undefined> {
    try {
      const info = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: `${key}.info` }));
      return info.Metadata?.["upload-id"];
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }
}

/**
 * tus's metadata cache for S3 uploads, bounded: an upload finished or removed by another
 * instance is never deleted from this one's cache, so the oldest entries make way.
 */
class BoundedKvStore<T> implements KvStore<T> {
  private readonly entries = new Map<string, T>();

  constructor(private readonly limit: number) {}

  async get(key: string): Promise<T | undefined> {
    return this.entries.get(key);
  }

  async set(key: string, value: T): Promise<void> {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value!);
  }

  async delete(key: string): Promise<void> {
    this.entries.delete(key);
  }
}
