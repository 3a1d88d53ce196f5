import { readFile } from "node:fs/promises"
import { type Engine, isDomainError, type PlatformRecord } from "@tessera/core"
import { StartupError } from "./startup-errors.ts"

const READ_FAILURES: Record<string, string> = {
  ENOENT: "does not exist",
  EACCES: "cannot be read (permission denied)",
  EISDIR: "is a directory",
  ENOTDIR: "is not under a directory"
}

const FIX = "pass a document saved from GET /2025-10-13/sandbox/state with --seed-file"

/**
 * Loads a seed file into the sandbox platform: the whole document replaces the platform's data
 * (the same import as `PUT /sandbox/state`, without its HTTP body cap), or nothing changes and
 * the start fails with one line naming the file, what is wrong with it and the fix.
 */
export const loadSeedFile = async (engine: Engine, platform: PlatformRecord, path: string): Promise<Record<string, number>> => {
  let text: string
  try {
    text = await readFile(path, "utf8")
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? ""
    throw new StartupError(`seed file ${JSON.stringify(path)} ${READ_FAILURES[code] ?? `cannot be read (${code || "unknown error"})`}; ${FIX}`, { cause: e })
  }
  let document: unknown
  try {
    document = JSON.parse(text)
  } catch (e) {
    throw new StartupError(`seed file ${JSON.stringify(path)} is not JSON; ${FIX}`, { cause: e })
  }
  try {
    return (await engine.as(platform).sandbox.importState(document)).imported
  } catch (e) {
    if (!isDomainError(e)) throw e
    const errors = (e.details as { errors?: ReadonlyArray<{ field: string; message: string }> } | undefined)?.errors ?? []
    const first = errors[0] === undefined ? e.message : `${errors[0].field} ${errors[0].message}`
    const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : ""
    throw new StartupError(`seed file ${JSON.stringify(path)} is not a state document Tessera can load: ${first}${more}; ${FIX}`, { cause: e })
  }
}
