// s3rver ships no types; the tests reach it through the shape declared in s3-server.ts.
declare module "s3rver" {
  const S3rver: unknown;
  export default S3rver;
}
