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
/** The plugin that puts the libraries no start runs in a second file, and `finish`, which writes that file beside `outfile`. */
export declare const sideLibraries: () => {
  readonly plugin: Plugin
  readonly finish: (build: typeof import("esbuild").build, text: string, outfile: string, mainInputs: Metafile["inputs"]) => Promise<{ readonly text: string; readonly file: string | undefined }>
}
/** How the CLI bundle's code begins, after its header lines: one function expression of CommonJS's module arguments. */
export declare const BUNDLE_START: string
export declare const bundleCli: (options: {
  readonly outfile: string
  readonly sqlite: string
  readonly listSources?: boolean
}) => Promise<{ readonly metafile: Metafile; readonly sources: ReadonlyArray<string>; readonly sideFile: string | undefined }>
