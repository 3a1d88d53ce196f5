import { readFileSync } from "node:fs"
import { join } from "node:path"
import { sharedDir } from "../support/paths.ts"

/** The known-answer vectors of `../shared/vectors/vectors.json`, by group. */
export const vectors = JSON.parse(readFileSync(join(sharedDir, "vectors/vectors.json"), "utf8")) as Record<string, Array<Record<string, any>>>
