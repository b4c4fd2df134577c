// The computer opponent's move time inside Pyodide under Node (the browser's WebAssembly
// engine, V8, without the page around it):
//
//   node bench/opponent_pyodide.mjs [--site dist/site] [--level strong] [--duels 4] [--turns 20]
//
// Boots the site's own Pyodide, puts this checkout's engine source on sys.path (so it measures
// the code here, built or not), and plays `--level` against today's old opponent
// (bench/baseline_ai.py), alternating sides; prints the median, 90th percentile and worst CPU and
// wall time of the level's orders moves (on a shared machine wall time also counts the others).

import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

function parseArgs(argv) {
  const opts = { site: path.join(ROOT, "dist", "site"), level: "strong", duels: 4, turns: 20 };
  for (let i = 0; i < argv.length; i++) {
    const key = argv[i].replace(/^--/, "");
    if (!(key in opts)) throw new Error(`unknown argument ${argv[i]}`);
    opts[key] = key === "site" ? path.resolve(argv[++i]) : key === "level" ? argv[++i] : Number(argv[++i]);
  }
  return opts;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const pyodideDir = path.join(opts.site, "pyodide");
  if (!existsSync(path.join(pyodideDir, "pyodide.mjs"))) throw new Error(`${opts.site} is not a built site`);
  const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
  const pyodide = await loadPyodide({ indexURL: pyodideDir + path.sep, env: { PYTHONDONTWRITEBYTECODE: "1" } });
  pyodide.mountNodeFS("/repo", ROOT);
  pyodide.globals.set("OPTS", pyodide.toPy(opts));
  const report = pyodide.runPython(`
import sys, time
from js import process
sys.path[:0] = ["/repo/engine", "/repo/bench"]

def cpu():
    """Seconds of CPU this process used: on a shared machine wall time also counts the others."""
    u = process.cpuUsage()
    return (u.user + u.system) / 1e6

import baseline_ai
from wavinghands.ai import choose_input
from wavinghands.duel import new_game, step
level, times, cpus, results = OPTS["level"], [], [], []
for k in range(int(OPTS["duels"])):
    me = k % 2
    game = new_game(("Ann", "Bo"), f"{k + 1:016x}")
    while game.phase.kind != "over" and game.turn <= int(OPTS["turns"]):
        inputs = {}
        for v in game.phase.actors:
            if v == me:
                t0, c0 = time.perf_counter(), cpu()
                inputs[v] = choose_input(game, v, level)
                if game.phase.kind != "decision":
                    times.append(time.perf_counter() - t0)
                    cpus.append(cpu() - c0)
            else:
                inputs[v] = baseline_ai.choose_input(game, v)
        game, _ = step(game, inputs)
    results.append(None if game.result is None else game.result.winner == me)
def spread(ts):
    ts = sorted(ts)
    ms = lambda t: f"{1000 * t:.0f} ms"
    return f"median {ms(ts[len(ts) // 2])}, 90th percentile {ms(ts[int(len(ts) * 0.9)])}, worst {ms(ts[-1])}"

(f"{level} in Pyodide {sys.version.split()[0]}, {len(times)} moves\\n"
 f"  CPU time:  {spread(cpus)}\\n  wall time: {spread(times)}\\n"
 f"  won {sum(r is True for r in results)} of {len(results)} duels against the old opponent")
`);
  console.log(report);
}

main().catch((err) => {
  console.error(err.stack || String(err));
  process.exit(2);
});
