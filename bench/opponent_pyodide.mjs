// The computer opponent's move time inside Pyodide under Node (the browser's WebAssembly
// engine, V8, without the page around it):
//
//   node bench/opponent_pyodide.mjs [--site dist/site] [--level strong] [--duels 16]
//        [--turns 20] [--against baseline,fair] [--opening 2] [--deadline MS]
//        [--clock wall|cpu] [--source DIR] [--out moves.jsonl] [--work N|none] [--progress]
//
// Boots the site's own Pyodide, puts the engine source and bench/ of `--source` (default this
// checkout, so it measures the code here, built or not) on sys.path, and runs
// bench/opponent_timing.py there: `--level` plays `--duels` duels against each player of
// `--against`, alternating sides, each from its own random opening; prints the median, 90th
// and 99th percentile and worst CPU and wall time of the level's orders moves (on a shared
// machine wall time also counts the others), the work units spent, the moves a `--deadline`
// (milliseconds, as the page passes it) cut and how long after it their answers came, and the
// slowest moves with what made them big.  `--clock cpu` counts the deadline in the process's
// CPU time (what the engine adds after it, whatever the machine's load).
// `--work` (calibration) plays the level with another work budget ("none": unbounded).

import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { repoPyodide } from "./pyodide_repo.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const NUMBERS = new Set(["duels", "turns", "opening", "deadline"]);
const PATHS = new Set(["site", "source", "out"]);

function parseArgs(argv) {
  const opts = {
    site: path.join(ROOT, "dist", "site"), source: ROOT, level: "strong", duels: 16, turns: 20,
    against: "baseline,fair", opening: 2, deadline: null, clock: "wall", work: null, out: null,
    progress: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const key = argv[i].replace(/^--/, "");
    if (!(key in opts)) throw new Error(`unknown argument ${argv[i]}`);
    if (key === "progress") opts.progress = true;
    else if (NUMBERS.has(key)) opts[key] = Number(argv[++i]);
    else if (PATHS.has(key)) opts[key] = path.resolve(argv[++i]);
    else opts[key] = argv[++i];
  }
  return opts;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const pyodide = await repoPyodide(opts.site, opts.source);
  const { level, against, duels, turns, opening, deadline } = opts;
  const forPython = { level, against, duels, turns, opening, clock: opts.clock };
  if (deadline !== null) forPython.deadline = deadline;
  if (opts.work !== null) forPython.work = opts.work; // calibration: a number or "none"
  pyodide.globals.set("OPTS", pyodide.toPy(forPython));
  pyodide.globals.set("say", (line) => { if (opts.progress) console.error(line); });
  const answer = pyodide.runPython(`
import json, sys
from js import process
sys.path[:0] = ["/repo/engine", "/repo/bench"]
from opponent_timing import report, set_work, timed_moves
if "work" in OPTS:
    set_work(OPTS["level"], None if OPTS["work"] == "none" else int(OPTS["work"]))

def cpu():
    """Seconds of CPU this process used: on a shared machine wall time also counts the others."""
    u = process.cpuUsage()
    return (u.user + u.system) / 1e6

moves = timed_moves(OPTS["level"], OPTS["against"].split(","), int(OPTS["duels"]),
                    int(OPTS["turns"]), int(OPTS["opening"]), OPTS.get("deadline"), cpu,
                    progress=say, cpu_deadline=OPTS["clock"] == "cpu")
json.dumps({"report": report(moves, OPTS["level"], f"Pyodide {sys.version.split()[0]}"),
            "moves": moves})
`);
  const { report, moves } = JSON.parse(answer);
  if (opts.out) writeFileSync(opts.out, moves.map((m) => JSON.stringify(m) + "\n").join(""));
  console.log(report);
}

main().catch((err) => {
  console.error(err.stack || String(err));
  process.exit(2);
});
