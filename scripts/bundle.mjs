// Bundles the web client's page entry modules with esbuild (called by
// `python -m cardroom.server.bundle --write`, which records what each bundle was made from).
// The client imports some modules by their URL path ("/js/dom.js"): they resolve in the web
// folder, as the browser resolves them on the server.
import * as esbuild from "esbuild";
import { writeFileSync } from "node:fs";
import { join } from "node:path";

const [web, outdir, metafile, optionsJson, ...entryPoints] = process.argv.slice(2);
const fromWebRoot = {
  name: "web-root",
  setup(build) {
    build.onResolve({ filter: /^\// }, (args) => ({ path: join(web, args.path) }));
  },
};
const result = await esbuild.build({
  ...JSON.parse(optionsJson),
  entryPoints,
  absWorkingDir: web,
  outbase: ".",
  outdir,
  bundle: true,
  metafile: true,
  logLevel: "warning",
  plugins: [fromWebRoot],
});
writeFileSync(metafile, JSON.stringify(result.metafile));
