/** Where an S3-compatible bucket is and how to reach it, read from STORAGE_URL. */
export interface S3Settings {
  /** http(s)://host[:port] of the S3 API. */
  endpoint: string;
  region: string;
  bucket: string;
  /** Put before every key ("" or "some/prefix/"), so that several sites can share a bucket. */
  prefix: string;
  /** Bucket in the path (MinIO, most self-hosted servers) rather than in the host name. */
  forcePathStyle: boolean;
  /** Absent: the AWS SDK's own chain (AWS_ACCESS_KEY_ID…, an instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

export const storageUrlExample = "s3://KEY:SECRET@s3.example.com/bucket?region=eu-west-1";

const bucketPattern = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const prefixSegment = /^[A-Za-z0-9_-]{1,64}$/;
const regionPattern = /^[a-z0-9-]{1,32}$/;
const options = new Set(["region", "path_style", "tls"]);

/**
 * Reads `s3://KEY:SECRET@host[:port]/bucket[/prefix…][?region=…&path_style=0|1&tls=0|1]`.
 * TLS is on unless `tls=0` (for a server on a private network or this machine). Returns the
 * settings, or what is wrong in words that never repeat the URL (it holds a secret).
 */
export function parseStorageUrl(value: string): S3Settings | { problem: string } {
  if (value.length > 2048) return { problem: "at most 2048 characters" };
  const url = URL.parse(value);
  if (!url || url.protocol !== "s3:") return { problem: "a URL starting with s3://" };
  if (!url.hostname) return { problem: "the S3 server's host name after s3://" };
  if (Boolean(url.username) !== Boolean(url.password)) {
    return { problem: "both the access key and the secret (s3://KEY:SECRET@host/…), or neither" };
  }
  let credentials: S3Settings["credentials"];
  try {
    if (url.username) {
      credentials = {
        accessKeyId: decodeURIComponent(url.username),
        secretAccessKey: decodeURIComponent(url.password),
      };
    }
  } catch {
    return { problem: "the access key and secret percent-encoded (a / in the secret is %2F)" };
  }
  const [bucket = "", ...prefix] = url.pathname.replace(/^\/+/, "").replace(/\/+$/, "").split("/");
  if (!bucketPattern.test(bucket)) {
    return { problem: "a bucket name after the host: 3 to 63 lowercase letters, digits, dots or hyphens" };
  }
  if (!prefix.every((segment) => prefixSegment.test(segment))) {
    return { problem: "a key prefix after the bucket made of letters, digits, _ and - between slashes" };
  }
  for (const name of url.searchParams.keys()) {
    if (!options.has(name)) return { problem: `only the options region, path_style and tls (not "${name}")` };
  }
  const region = url.searchParams.get("region") ?? "us-east-1";
  if (!regionPattern.test(region)) return { problem: "a region such as eu-west-1" };
  const flags: Record<string, boolean> = {};
  for (const name of ["path_style", "tls"]) {
    const flag = url.searchParams.get(name);
    if (flag !== null && flag !== "0" && flag !== "1") return { problem: `${name}=0 or ${name}=1` };
    flags[name] = flag === "1";
  }
  const tls = url.searchParams.get("tls") !== "0";
  return {
    endpoint: `${tls ? "https" : "http"}://${url.host}`,
    region,
    bucket,
    prefix: prefix.map((segment) => `${segment}/`).join(""),
    forcePathStyle: flags.path_style!,
    credentials,
  };
}

/** The bucket's address for logs and errors: never the credentials. */
export function describeS3(settings: S3Settings): string {
  return `${settings.endpoint}/${settings.bucket}${settings.prefix ? `/${settings.prefix.slice(0, -1)}` : ""}`;
}
