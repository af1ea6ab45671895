// Browser tests set up what the UI cannot (a staff role) in a server's own database: they find
// its data directory through a note in the temporary folder, by the server's port.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export function dataDirNotePath(port: string | number): string {
  return path.join(os.tmpdir(), `upskill-e2e-${port}.datadir`);
}

/** Notes a server's data directory; returns what removes the note. */
export function noteDataDir(server: { url: string; dataDir: string }): () => void {
  const note = dataDirNotePath(new URL(server.url).port);
  fs.writeFileSync(note, server.dataDir);
  return () => fs.rmSync(note, { force: true });
}
