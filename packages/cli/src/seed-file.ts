// `promises` of node:fs rather than node:fs/promises: Node loads that module at the getter's first
// read, so only a start with --seed-file pays for it (~0.8 ms, DECISIONS #477).
import { promises } from "node:fs"
import { Either } from "effect"
import type { Engine, PlatformRecord, StateDocument } from "@tessera/core"
import { StartupError } from "./startup-errors.ts"

const READ_FAILURES: Record<string, string> = {
  ENOENT: "does not exist",
  EACCES: "cannot be read (permission denied)",
  EISDIR: "is a directory",
  ENOTDIR: "is not under a directory"
}

const FIX = "pass a document saved from GET /2025-10-13/sandbox/state with --seed-file"

/** A seed file that was read and passed every check of the import, so importing it cannot be refused. */
export interface Seed {
  readonly path: string
  readonly document: typeof StateDocument.Encoded
}

/**
 * Reads and checks a seed file before anything is opened or written: an unreadable file, one
 * that is not JSON or one the import would refuse fails the start with one line naming the file,
 * what is wrong with it and the fix, and the database stays as it was.
 */
export const readSeedFile = async (path: string): Promise<Seed> => {
  const named = JSON.stringify(path)
  let text: string
  try {
    text = await promises.readFile(path, "utf8")
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? ""
    throw new StartupError(`seed file ${named} ${READ_FAILURES[code] ?? `cannot be read (${code || "unknown error"})`}; ${FIX}`, { cause: e })
  }
  let document: unknown
  try {
    document = JSON.parse(text)
  } catch (e) {
    throw new StartupError(`seed file ${named} is not JSON; ${FIX}`, { cause: e })
  }
  // Loaded here, not with the CLI: the state document's schemas are most of the domain's, and a
  // start without a seed file has no use for them (DECISIONS #504).
  const { checkStateDocument } = await import("@tessera/core")
  const checked = checkStateDocument(document)
  if (Either.isLeft(checked)) {
    const errors = (checked.left.details?.["errors"] ?? []) as ReadonlyArray<{ readonly field: string; readonly message: string }>
    const first = errors[0] === undefined ? checked.left.message : `${errors[0].field} ${errors[0].message}`
    const count = Number(checked.left.details?.["problemCount"] ?? errors.length)
    const more = count > 1 ? ` (and ${count - 1} more)` : ""
    throw new StartupError(`seed file ${named} is not a state document Tessera can load: ${first}${more}; ${FIX}`, { cause: checked.left })
  }
  // The check above is the import's own, so the document has the state document's shape.
  return { path, document: document as typeof StateDocument.Encoded }
}

/** The import itself (the same as `PUT /sandbox/state`, without its HTTP body cap): it replaces the platform's data. */
export const importSeed = (engine: Engine, platform: PlatformRecord, seed: Seed) => engine.as(platform).sandbox.importState(seed.document)
