// The dependency rule of docs/architecture.md ("Layers"), checked in `npm run lint`:
//   1. no import circle under app/ (type imports counted: a circle of types is still a circle);
//   2. the core (app/core and the infrastructure beside it) imports no feature, except a
//      feature's leaf modules (kind lists and field names that themselves import only the core);
//   3. features never import app/staff/ (the staff workspace sits above them) nor the
//      composition root (app/platform/services.server.ts); only routes, app/root.tsx, page modules
//      (`*-page.server.ts`) and the composition root itself reach the services.
// There are no exceptions: an import that breaks a rule fails the check.
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

const root = path.resolve(import.meta.dirname, "..");
const appDir = path.join(root, "app");

/** Folders under app/ that form the core: they may import only each other (and leaf modules). */
const coreFolders = new Set(["core", "db", "config", "logging", "security", "realtime"]);
/** Above the features: may import anything. */
const topFolders = new Set(["routes", "platform", "http", "(root)"]);

function listFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return listFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [full] : [];
  });
}

const files = listFiles(appDir);
const known = new Set(files);

function resolveImport(from: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith("~/")) base = path.join(appDir, specifier.slice(2));
  else if (specifier.startsWith(".")) base = path.resolve(path.dirname(from), specifier);
  else return null;
  const candidates = [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts"), path.join(base, "index.tsx")];
  return candidates.find((candidate) => known.has(candidate)) ?? null;
}

const imports = new Map<string, string[]>();
for (const file of files) {
  const info = ts.preProcessFile(fs.readFileSync(file, "utf8"), true, true);
  const targets = info.importedFiles
    .map(({ fileName }) => resolveImport(file, fileName))
    .filter((target): target is string => target !== null);
  imports.set(file, [...new Set(targets)]);
}

const relative = (file: string) => path.relative(root, file);
const folderOf = (file: string) => {
  const parts = path.relative(appDir, file).split(path.sep);
  return parts.length > 1 ? parts[0]! : "(root)";
};
const isPageModule = (file: string) => file.endsWith("-page.server.ts");

const problems: string[] = [];

// 1. Circles: Tarjan's strongly connected components.
{
  let index = 0;
  const indices = new Map<string, number>();
  const lowLinks = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const visit = (file: string) => {
    indices.set(file, index);
    lowLinks.set(file, index);
    index++;
    stack.push(file);
    onStack.add(file);
    for (const target of imports.get(file) ?? []) {
      if (!indices.has(target)) {
        visit(target);
        lowLinks.set(file, Math.min(lowLinks.get(file)!, lowLinks.get(target)!));
      } else if (onStack.has(target)) {
        lowLinks.set(file, Math.min(lowLinks.get(file)!, indices.get(target)!));
      }
    }
    if (lowLinks.get(file) === indices.get(file)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      const selfImport = imports.get(file)?.includes(file);
      if (component.length > 1 || selfImport) {
        problems.push(`Import circle: ${component.map(relative).sort().join(" <-> ")}`);
      }
    }
  };
  for (const file of files) if (!indices.has(file)) visit(file);
}

// A leaf module imports nothing but the core and other leaves: a kind list, a set of field names.
const leaves = new Map<string, boolean>();
function isLeaf(file: string): boolean {
  const known = leaves.get(file);
  if (known !== undefined) return known;
  leaves.set(file, false); // a module in a circle is no leaf
  const leaf = (imports.get(file) ?? []).every((target) => coreFolders.has(folderOf(target)) || isLeaf(target));
  leaves.set(file, leaf);
  return leaf;
}

for (const [file, targets] of imports) {
  const from = folderOf(file);
  for (const target of targets) {
    const to = folderOf(target);
    if (to === from) continue;
    const edge = `${relative(file)} -> ${relative(target)}`;
    let broken: string | null = null;
    if (coreFolders.has(from) && !coreFolders.has(to) && !isLeaf(target)) {
      broken = `the core (app/${from}) imports a feature module`;
    } else if (!coreFolders.has(from) && !topFolders.has(from)) {
      if (to === "staff") broken = "a feature imports app/staff/";
      else if (relative(target) === "app/platform/services.server.ts") {
        if (!isPageModule(file)) broken = "a feature module reaches the services (only routes and page modules may)";
      } else if (topFolders.has(to) && to !== "http") {
        broken = `a feature imports app/${to}/, which sits above it`;
      }
    }
    if (broken) problems.push(`${edge}: ${broken}`);
  }
}

if (problems.length > 0) {
  console.error(`Dependency rule (docs/architecture.md, "Layers"): ${problems.length} problem(s)`);
  for (const problem of problems) console.error(`- ${problem}`);
  process.exit(1);
}
console.log(`Dependency rule: ${files.length} files, no import circle, layers respected.`);
