// What one engine call costs at turns 1, 10, 20 and 40 of a duel played by turn codes, inside
// Pyodide under Node (the browser's WebAssembly engine, V8, without the page around it):
//
//   node bench/call_cost.mjs [--site dist/site] [--source DIR] [--at 1,10,20,40] [--repeat 3]
//
// Boots the site's own Pyodide, puts the engine source and bench/ of `--source` (default this
// checkout) on sys.path, and runs bench/call_cost.py's report there, counted in the process's CPU
// time (the machine is shared).

import path from "node:path";
import { fileURLToPath } from "node:url";

import { repoPyodide } from "./pyodide_repo.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Parse the options (paths for --site and --source, a list of turns for --at, duels for --repeat). */
function parseArgs(argv) {
  const opts = { site: path.join(ROOT, "dist", "site"), source: ROOT, at: "1,10,20,40", repeat: "3" };
  for (let i = 0; i < argv.length; i++) {
    const key = argv[i].replace(/^--/, "");
    if (!(key in opts)) throw new Error(`unknown argument ${argv[i]}`);
    const value = argv[++i];
    opts[key] = key === "at" || key === "repeat" ? value : path.resolve(value);
  }
  return opts;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const pyodide = await repoPyodide(opts.site, opts.source);
  pyodide.globals.set("AT", opts.at);
  pyodide.globals.set("REPEAT", Number(opts.repeat));
  const report = pyodide.runPython(`
import sys
from js import process
sys.path[:0] = ["/repo/engine", "/repo/bench"]
from call_cost import report
from wavinghands import api

def cpu():
    """Seconds of CPU this process used."""
    u = process.cpuUsage()
    return (u.user + u.system) / 1e6

report(api, [int(t) for t in AT.split(",")], cpu, f"Pyodide {sys.version.split()[0]}", int(REPEAT))
`);
  console.log(report);
}

main().catch((err) => {
  console.error(err.stack || String(err));
  process.exit(2);
});
