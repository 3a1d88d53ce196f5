import type { Metafile, Plugin } from "esbuild"

/** The esbuild plugin that gives Effect's `FastCheck` module a stand-in in the CLI bundle. */
export declare const withoutFastCheck: Plugin
export declare const bundleCli: (options: {
  readonly outfile: string
  readonly sqlite: string
  readonly listSources?: boolean
}) => Promise<{ readonly metafile: Metafile; readonly sources: ReadonlyArray<string> }>
