// A melee turn's resolution time inside Pyodide under Node (the browser's WebAssembly engine,
// V8, without the page around it):
//
//   node bench/melee_pyodide.mjs [--site dist/site] [--games 4] [--turns 20]
//        [--ruleset standard] [--source DIR]
//
// Boots the site's own Pyodide, puts the engine source and bench/ of `--source` (default this
// checkout) on sys.path, and runs bench/melee_bench.py's step_report there: per N = 3..6, the
// CPU time of the engine's step of an orders phase, and of the page's call (api.step, JSON in
// and out), median and 90th percentile, counted in the process's CPU time (the machine is shared).

import path from "node:path";
import { fileURLToPath } from "node:url";

import { repoPyodide } from "./pyodide_repo.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Parse the options (numbers for --games and --turns, paths for --site and --source). */
function parseArgs(argv) {
  const opts = { site: path.join(ROOT, "dist", "site"), source: ROOT, games: 4, turns: 20, ruleset: "standard" };
  for (let i = 0; i < argv.length; i++) {
    const key = argv[i].replace(/^--/, "");
    if (!(key in opts)) throw new Error(`unknown argument ${argv[i]}`);
    const value = argv[++i];
    opts[key] = key === "games" || key === "turns" ? Number(value)
      : key === "site" || key === "source" ? path.resolve(value) : value;
  }
  return opts;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const pyodide = await repoPyodide(opts.site, opts.source);
  pyodide.globals.set("OPTS", pyodide.toPy({ games: opts.games, turns: opts.turns, ruleset: opts.ruleset }));
  const report = pyodide.runPython(`
import sys
from js import process
sys.path[:0] = ["/repo/engine", "/repo/bench"]
from melee_bench import step_report

def cpu():
    """Seconds of CPU this process used."""
    u = process.cpuUsage()
    return (u.user + u.system) / 1e6

step_report(int(OPTS["games"]), int(OPTS["turns"]), OPTS["ruleset"], cpu,
            f"Pyodide {sys.version.split()[0]}")
`);
  console.log(report);
}

main().catch((err) => {
  console.error(err.stack || String(err));
  process.exit(2);
});
