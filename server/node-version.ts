// Runs before anything else in the server bundle: on too old a Node, one line and stop.
const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
if (major < 22 || (major === 22 && minor < 22)) {
  console.error(
    `Upskill needs Node.js 22.22 or newer (this is ${process.versions.node}); start it with "npm start", which uses the Node 24 the project installs.`,
  );
  process.exit(1);
}
export {};
