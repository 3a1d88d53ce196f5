#!/usr/bin/env node
// A throwaway PostgreSQL cluster for the tests: initdb into a temporary folder, listening only on
// a Unix socket in that folder (no port to collide with), fsync off (nothing in it outlives the
// run). PostgreSQL refuses to run as root, so under root (CI) the server runs as the `postgres`
// user the distribution's package creates.
//
//   node scripts/pg-cluster.mjs start   prints `URL DIR`; the cluster runs until stopped
//   node scripts/pg-cluster.mjs stop DIR stops it and deletes DIR
import { execFileSync } from "node:child_process"
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

/** The directory holding initdb and pg_ctl: on PATH, or a Debian install's versioned folder. */
export const findPgBin = () => {
  for (const dir of (process.env.PATH ?? "").split(":")) if (dir !== "" && existsSync(join(dir, "initdb")) && existsSync(join(dir, "pg_ctl"))) return dir
  const debian = "/usr/lib/postgresql"
  if (existsSync(debian)) {
    const versions = readdirSync(debian).filter((v) => existsSync(join(debian, v, "bin", "initdb"))).sort((a, b) => Number(b) - Number(a))
    if (versions.length > 0) return join(debian, versions[0], "bin")
  }
  return undefined
}

const asServerUser = (bin, args) => {
  const root = process.getuid?.() === 0
  if (!root) return execFileSync(join(bin, args[0]), args.slice(1), { stdio: ["ignore", "pipe", "pipe"] })
  const line = [join(bin, args[0]), ...args.slice(1)].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ")
  return execFileSync("su", ["postgres", "-s", "/bin/sh", "-c", line], { stdio: ["ignore", "pipe", "pipe"] })
}

/** Starts a cluster; answers its connection URL and its folder (to stop it with). */
export const startCluster = () => {
  const bin = findPgBin()
  if (bin === undefined) throw new Error("PostgreSQL is not installed (no initdb/pg_ctl on PATH or under /usr/lib/postgresql)")
  const dir = mkdtempSync(join(tmpdir(), "tessera-pg-"))
  chmodSync(dir, 0o755)
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim())
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim())
    chownSync(dir, uid, gid)
  }
  const data = join(dir, "data")
  asServerUser(bin, ["initdb", "-D", data, "-U", "tessera", "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync"])
  const opts = `-c listen_addresses='' -k ${dir} -c max_connections=400 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`
  asServerUser(bin, ["pg_ctl", "-D", data, "-o", opts, "-l", join(dir, "server.log"), "-w", "-t", "60", "start"])
  return { url: `postgresql://tessera@localhost/postgres?host=${dir}`, dir }
}

/** Stops the cluster in `dir` and deletes the folder; nothing to do when it is already gone. */
export const stopCluster = (dir) => {
  if (!existsSync(dir)) return
  const bin = findPgBin()
  try {
    if (bin !== undefined) asServerUser(bin, ["pg_ctl", "-D", join(dir, "data"), "-m", "immediate", "-w", "stop"])
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [cmd, dir] = process.argv.slice(2)
  if (cmd === "start") {
    const c = startCluster()
    console.log(`${c.url} ${c.dir}`)
  } else if (cmd === "stop" && dir !== undefined) stopCluster(dir)
  else {
    console.error("usage: pg-cluster.mjs start | stop DIR")
    process.exit(2)
  }
}
