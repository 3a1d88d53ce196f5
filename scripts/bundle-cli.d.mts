import type { Metafile, Plugin } from "esbuild"

/** The esbuild plugin that gives Effect's `FastCheck` module a stand-in in the CLI bundle. */
export declare const withoutFastCheck: Plugin
/** The esbuild plugin that has Effect's schema classes build their schemas at first use (CLI bundle). */
export declare const withLazyClassSchemas: Plugin
/** The esbuild plugin that reads the workspace's `import { … } from "effect"` as imports of Effect's modules (CLI bundle). */
export declare const withPerModuleEffectImports: Plugin
/** The esbuild plugin that loads @noble/* and @scure/* at their first use from workspace sources (CLI bundle). */
export declare const withLazyLibraryImports: Plugin
/** The rewrite behind it, on one source's text; throws for what it cannot keep lazy or correct. */
export declare const lazyLibraryImports: (source: string, where: string) => string
export declare const bundleCli: (options: {
  readonly outfile: string
  readonly sqlite: string
  readonly listSources?: boolean
}) => Promise<{ readonly metafile: Metafile; readonly sources: ReadonlyArray<string> }>
