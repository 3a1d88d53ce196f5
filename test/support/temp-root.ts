// Every temporary file of a test run or a bench run goes under one folder of its own, removed when
// the run ends. The tests and benches make hundreds of temporary folders (SQLite files, bundles,
// servers' databases, the capture's logs of up to ~300 MB), each with `mkdtemp` in `os.tmpdir()`,
// and most were never removed: a day of runs left ~1.5 GB in /tmp. Pointing the run's temporary
// directory at its own folder gets every one of them, the child processes' included (they inherit
// the environment), without each test tidying after itself.
import { chmodSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

/** The variables `os.tmpdir()` reads (TMPDIR first on POSIX systems, TEMP and TMP on Windows). */
const TEMP_VARIABLES = ["TMPDIR", "TEMP", "TMP"] as const

/** The environment that makes `dir` a child process's temporary directory. */
export const tempEnv = (dir: string): Record<(typeof TEMP_VARIABLES)[number], string> => ({ TMPDIR: dir, TEMP: dir, TMP: dir })

/**
 * Makes a folder in the current temporary directory and makes it this process's temporary
 * directory (and its children's); answers the function that removes it and restores the old one.
 * A run that is killed leaves its folder (named after `prefix`), as each of its files was left
 * before; a folder that cannot be removed is named in a warning, never an error that would hide
 * the run's own outcome.
 */
export const useTempRoot = (prefix: string): (() => void) => {
  const before = TEMP_VARIABLES.map((name) => [name, process.env[name]] as const)
  const root = mkdtempSync(join(tmpdir(), prefix))
  // Others may pass through (not list): a PostgreSQL cluster made inside it (scripts/pg-cluster.mjs)
  // runs as the postgres user, who must reach its folder. The folders made in it stay private.
  passable(root)
  Object.assign(process.env, tempEnv(root))
  let removed = false
  return () => {
    if (removed) return
    removed = true
    for (const [name, value] of before) {
      if (value === undefined) delete process.env[name]
      else process.env[name] = value
    }
    try {
      rmSync(root, { recursive: true, force: true, maxRetries: 3 })
    } catch (e) {
      process.stderr.write(`warning: could not remove the temporary folder ${root}: ${e instanceof Error ? e.message : String(e)}\n`)
    }
  }
}

/** Lets other users through a folder of ours (not list it): see `useTempRoot`. */
export const passable = (dir: string): void => chmodSync(dir, 0o711)

/** Vitest global setup: the run's temporary folder, removed after the last test file. */
export default function setup(): () => void {
  return useTempRoot("tessera-test-")
}
