// The site's own Pyodide booted under Node with a checkout mounted at /repo, for the bench
// scripts that run the engine's Python benchmarks inside it (call_cost.mjs, melee_pyodide.mjs,
// opponent_pyodide.mjs): the browser's WebAssembly engine, V8, without the page around it.

import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

/** Boot `site`'s Pyodide (a built site's folder) and mount the checkout `source` at /repo. */
export async function repoPyodide(site, source) {
  const pyodideDir = path.join(site, "pyodide");
  if (!existsSync(path.join(pyodideDir, "pyodide.mjs"))) throw new Error(`${site} is not a built site`);
  const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
  const pyodide = await loadPyodide({ indexURL: pyodideDir + path.sep, env: { PYTHONDONTWRITEBYTECODE: "1" } });
  pyodide.mountNodeFS("/repo", source);
  return pyodide;
}
