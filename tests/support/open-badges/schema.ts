import fs from "node:fs";
import path from "node:path";
import { Ajv2019 } from "ajv/dist/2019";
import addFormats from "ajv-formats";

const schema = JSON.parse(
  fs.readFileSync(path.join(import.meta.dirname, "achievementcredential.schema.json"), "utf8"),
) as object;
// The schema's "@context" is a two-item tuple with more items allowed, which Ajv's strict mode
// would only warn about; the vendored schema stays as published.
const ajv = new Ajv2019({ allErrors: true, strictTuples: false });
addFormats(ajv);
const validate = ajv.compile(schema);

/**
 * What the 1EdTech AchievementCredential JSON Schema finds wrong with a credential, one line
 * per problem ("/proof: must be array"); empty when it validates.
 */
export function achievementCredentialErrors(credential: unknown): string[] {
  if (validate(credential)) return [];
  return (validate.errors ?? []).map((error) => `${error.instancePath || "/"}: ${error.message ?? error.keyword}`);
}
