import type { Metafile, Plugin } from "esbuild"

/** The esbuild plugin that gives Effect's `FastCheck` module a stand-in in the CLI bundle. */
export declare const withoutFastCheck: Plugin
/** The esbuild plugin that has Effect's schema classes build their schemas at first use (CLI bundle). */
export declare const withLazyClassSchemas: Plugin
/** The esbuild plugin that reads the workspace's `import { … } from "effect"` as imports of Effect's modules (CLI bundle). */
export declare const withPerModuleEffectImports: Plugin
export declare const bundleCli: (options: {
  readonly outfile: string
  readonly sqlite: string
  readonly listSources?: boolean
}) => Promise<{ readonly metafile: Metafile; readonly sources: ReadonlyArray<string> }>
