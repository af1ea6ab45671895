// A real S3-compatible server for the tests: s3rver (S3's HTTP API, SigV4 signatures checked,
// objects in a temporary directory) on a random port.
//
// s3rver implements multipart uploads (create, upload part, complete) but not ListParts or
// AbortMultipartUpload, which @tus/s3-store needs to learn how far an upload got and to drop
// one. Those two are added here, in front of s3rver's router, on s3rver's own record of the
// upload (its directory of parts), answering in S3's XML as AWS documents it.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { CreateBucketCommand, S3Client } from "@aws-sdk/client-s3";
import S3rver from "s3rver";

type S3ErrorClass = new (code: string, message: string, detail?: Record<string, string>) => Error;
// s3rver's own error, so that S3's XML error body and status come out as for its other answers.
const S3Error = createRequire(import.meta.url)("s3rver/lib/models/error.js") as S3ErrorClass;

interface KoaContext {
  method: string;
  path: string;
  query: Record<string, string | undefined>;
  status: number;
  body: unknown;
}

interface S3rverInstance {
  middleware: Array<(ctx: KoaContext, next: () => Promise<void>) => Promise<void>>;
  store: {
    getResourcePath(bucket: string, key: string | undefined, resource: string): string;
    deleteObject(bucket: string, key: string): Promise<void>;
  };
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
}

export const s3Credentials = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

export interface TestS3Server {
  endpoint: string;
  /** An s3:// URL for a new, empty bucket of its own (STORAGE_URL). */
  newBucketUrl(options?: { prefix?: string }): Promise<{ url: string; bucket: string }>;
  close(): Promise<void>;
}

let buckets = 0;

/** s3rver on `port`, or on one the system picks. */
export async function startS3Server(port = 0): Promise<TestS3Server> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "upskill-s3-"));
  const server = new (S3rver as unknown as new (options: object) => S3rverInstance)({
    address: "127.0.0.1",
    port,
    directory,
    silent: true,
  });
  const uploadsDir = (bucket: string) => server.store.getResourcePath(bucket, undefined, "uploads");
  // s3rver removes a "folder" left empty by a delete; a put into that folder at the same moment
  // then fails to open its file, outside any handler (an uncaught error in the test run). S3 has
  // no folders: deleting removes the object's files and nothing else.
  server.store.deleteObject = async (bucket, key) => {
    for (const resource of ["object", "object.md5", "metadata.json"]) {
      fs.rmSync(server.store.getResourcePath(bucket, key, resource), { force: true });
    }
  };
  // Before s3rver's router (the last middleware), after its XML encoder.
  server.middleware.splice(server.middleware.length - 1, 0, async (ctx, next) => {
    const uploadId = ctx.query.uploadId;
    const [, bucket] = ctx.path.split("/");
    if (!uploadId || !bucket || ctx.query.partNumber !== undefined || !/^[0-9a-f]{32}$/.test(uploadId)) {
      return next();
    }
    if (ctx.method !== "GET" && ctx.method !== "DELETE") return next();
    const dir = path.join(uploadsDir(bucket), uploadId);
    if (!fs.existsSync(path.join(dir, "key"))) {
      throw new S3Error("NoSuchUpload", "The specified upload does not exist.", { UploadId: uploadId });
    }
    if (ctx.method === "DELETE") {
      fs.rmSync(dir, { recursive: true, force: true });
      ctx.status = 204;
      ctx.body = "";
      return;
    }
    const parts = fs
      .readdirSync(dir)
      .filter((name) => /^\d+$/.test(name))
      .map(Number)
      .sort((a, b) => a - b)
      .map((number) => {
        const file = path.join(dir, String(number));
        const stats = fs.statSync(file);
        return {
          PartNumber: number,
          LastModified: stats.mtime.toISOString(),
          ETag: `"${fs.readFileSync(`${file}.md5`, "utf8")}"`,
          Size: stats.size,
        };
      });
    ctx.body = {
      ListPartsResult: {
        Bucket: bucket,
        Key: fs.readFileSync(path.join(dir, "key"), "utf8"),
        UploadId: uploadId,
        PartNumberMarker: 0,
        MaxParts: 10000,
        IsTruncated: false,
        ...(parts.length ? { Part: parts } : {}),
      },
    };
  });
  const { port: listening } = await server.run();
  const endpoint = `http://127.0.0.1:${listening}`;
  return {
    endpoint,
    async newBucketUrl(options = {}) {
      const bucket = `test-${process.pid}-${++buckets}`;
      await createBucket(endpoint, bucket);
      const prefix = options.prefix ? `/${options.prefix}` : "";
      return {
        bucket,
        url: `s3://${s3Credentials.accessKeyId}:${s3Credentials.secretAccessKey}@127.0.0.1:${listening}/${bucket}${prefix}?path_style=1&tls=0`,
      };
    },
    async close() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** CreateBucket through the SDK, as an operator would make the bucket. */
async function createBucket(endpoint: string, bucket: string) {
  const client = new S3Client({ endpoint, region: "us-east-1", forcePathStyle: true, credentials: s3Credentials });
  try {
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
  } finally {
    client.destroy();
  }
}
