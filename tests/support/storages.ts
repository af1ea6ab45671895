import fs from "node:fs";
import path from "node:path";
import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { afterAll, describe } from "vitest";
import { startS3Server, s3Credentials, type TestS3Server } from "./s3-server";

export interface TestStorage {
  kind: "disk" | "s3";
  /** A fresh, empty store for an app whose DATA_DIR is dataDir. */
  open(dataDir: string, options?: { prefix?: string }): Promise<TestStorageHandle>;
}

export interface TestStorageHandle {
  /** The settings that point the app at this store (none for the disk: it is under DATA_DIR). */
  env: Record<string, string>;
  /**
   * Everything the store holds, read past the app: stored files as `uploads/<key>`, what tus
   * keeps of unfinished uploads as `uploads-incoming/<name>` (its files on disk, or the
   * objects under `incoming/` in the bucket).
   */
  list(): Promise<string[]>;
  dispose(): Promise<void>;
}

export const disk: TestStorage = {
  kind: "disk",
  async open(dataDir) {
    return {
      env: {},
      async list() {
        const found: string[] = [];
        const walk = (dir: string) => {
          if (!fs.existsSync(dir)) return;
          for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
            const full = path.join(dir, entry.name);
            if (entry.isDirectory()) walk(full);
            else found.push(path.relative(dataDir, full));
          }
        };
        walk(path.join(dataDir, "uploads"));
        walk(path.join(dataDir, "uploads-incoming"));
        return found.sort();
      },
      async dispose() {},
    };
  },
};

function s3(server: () => Promise<TestS3Server>): TestStorage {
  return {
    kind: "s3",
    async open(_dataDir, options = {}) {
      const s3Server = await server();
      const { url, bucket } = await s3Server.newBucketUrl(options);
      const client = new S3Client({
        endpoint: s3Server.endpoint,
        region: "us-east-1",
        forcePathStyle: true,
        credentials: s3Credentials,
      });
      const prefix = options.prefix ? `${options.prefix}/` : "";
      return {
        env: { STORAGE_URL: url },
        async list() {
          const found: string[] = [];
          let token: string | undefined;
          do {
            const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
            for (const { Key } of page.Contents ?? []) {
              if (!Key?.startsWith(prefix)) throw new Error(`object outside the prefix: ${Key}`);
              const key = Key.slice(prefix.length);
              found.push(key.startsWith("incoming/") ? `uploads-incoming/${key.slice(9)}` : `uploads/${key}`);
            }
            token = page.IsTruncated ? page.NextContinuationToken : undefined;
          } while (token);
          return found.sort();
        },
        async dispose() {
          client.destroy();
        },
      };
    },
  };
}

/**
 * Runs a suite once on the local disk and once on a real S3-compatible server (s3rver, started
 * for the suite on a random port, each test with a bucket of its own).
 */
export function describeEachStorage(name: string, suite: (storage: TestStorage) => void): void {
  describe(`${name} [disk]`, () => suite(disk));
  describe(`${name} [s3]`, () => {
    let started: Promise<TestS3Server> | undefined;
    afterAll(async () => {
      if (started) await (await started).close();
    });
    suite(s3(() => (started ??= startS3Server())));
  });
}
