import fs from "node:fs";
import { Readable } from "node:stream";
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import type { S3Settings } from "~/config/storage-url";
import { assertKey, isStorageKey, type StoredObject, type UploadStorage } from "./storage.server";

/**
 * The SDK client's settings for a bucket. Checksums only where S3 requires them: the SDK's
 * default (a CRC32 trailer on every upload, aws-chunked) is not understood by many
 * S3-compatible servers, and TLS and SigV4 already protect the bytes in transit.
 */
export function s3ClientConfig(settings: S3Settings): S3ClientConfig {
  return {
    endpoint: settings.endpoint,
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    ...(settings.credentials ? { credentials: settings.credentials } : {}),
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    maxAttempts: 3,
  };
}

/** True for the SDK's "no such object" answers (HEAD has no body, so only its status says so). */
export function isMissing(error: unknown): boolean {
  if (!error || typeof error !== "object") return false;
  const { name, $metadata } = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return name === "NoSuchKey" || name === "NotFound" || $metadata?.httpStatusCode === 404;
}

/** Where, under the prefix, tus keeps unfinished uploads (incoming-uploads.server.ts): not stored files. */
export const incomingDirectory = "incoming/";

/** Objects larger than this go up as a multipart upload, in parts of this size. */
const partSize = 8 * 1024 * 1024;

/**
 * Uploaded files in an S3-compatible bucket, so that every instance serves what any of them
 * stored. A single PUT and a completed multipart upload both appear whole or not at all; a
 * stream that fails midway aborts its multipart upload, leaving nothing under the key.
 */
export class S3Storage implements UploadStorage {
  readonly client: S3Client;

  constructor(readonly settings: S3Settings) {
    this.client = new S3Client(s3ClientConfig(settings));
  }

  /** The object's key in the bucket: the configured prefix, then ours. */
  objectKey(key: string): string {
    assertKey(key);
    return `${this.settings.prefix}${key}`;
  }

  async put(key: string, data: Buffer | Readable): Promise<StoredObject> {
    const Key = this.objectKey(key);
    if (Buffer.isBuffer(data)) {
      await this.client.send(
        new PutObjectCommand({ Bucket: this.settings.bucket, Key, Body: data, ContentLength: data.length }),
      );
    } else {
      const upload = new Upload({
        client: this.client,
        params: { Bucket: this.settings.bucket, Key, Body: data },
        partSize,
        queueSize: 2,
        leavePartsOnError: false,
      });
      // A source that fails aborts the multipart upload (leavePartsOnError: false) and rejects here.
      await upload.done();
    }
    return (await this.stat(key))!;
  }

  async putFile(key: string, file: string): Promise<StoredObject> {
    const { size } = await fs.promises.stat(file);
    if (size > partSize) return this.put(key, fs.createReadStream(file));
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.settings.bucket,
        Key: this.objectKey(key),
        Body: fs.createReadStream(file),
        ContentLength: size,
      }),
    );
    return (await this.stat(key))!;
  }

  /** Copies an object inside the bucket (server-side: the bytes never pass through here). */
  async copy(fromObjectKey: string, toKey: string): Promise<StoredObject> {
    await this.client.send(
      new CopyObjectCommand({
        Bucket: this.settings.bucket,
        Key: this.objectKey(toKey),
        CopySource: `${this.settings.bucket}/${fromObjectKey.split("/").map(encodeURIComponent).join("/")}`,
      }),
    );
    return (await this.stat(toKey))!;
  }

  async get(key: string): Promise<{ stream: Readable; size: number } | null> {
    try {
      const object = await this.client.send(
        new GetObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }),
      );
      return { stream: object.Body as Readable, size: Number(object.ContentLength) };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async stat(key: string): Promise<StoredObject | null> {
    return this.statObject(this.objectKey(key));
  }

  /** stat() for any object in the bucket, ours or tus's. */
  async statObject(objectKey: string): Promise<StoredObject | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.settings.bucket, Key: objectKey }));
      return { size: Number(head.ContentLength), modifiedAt: head.LastModified ?? new Date() };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  /** Bytes [position, position + length) of an object, fewer at its end. */
  async readRange(objectKey: string, position: number, length: number): Promise<Buffer> {
    if (length <= 0) return Buffer.alloc(0);
    const object = await this.client.send(
      new GetObjectCommand({
        Bucket: this.settings.bucket,
        Key: objectKey,
        Range: `bytes=${position}-${position + length - 1}`,
      }),
    );
    return Buffer.from(await object.Body!.transformToByteArray());
  }

  async *list(): AsyncIterable<string> {
    const { bucket, prefix } = this.settings;
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
      );
      for (const { Key } of page.Contents ?? []) {
        const key = Key?.slice(prefix.length);
        if (key && !key.startsWith(incomingDirectory) && isStorageKey(key)) yield key;
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }));
  }

  async ready(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.settings.bucket }));
  }

  close(): void {
    this.client.destroy();
  }
}
