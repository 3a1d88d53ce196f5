import type { build, Plugin } from "esbuild"

/** One endpoint of the table as the CLI bundle's stand-in carries it. */
export interface ManifestEntry {
  /** All of the endpoint but `run`, `query` and `body`. */
  readonly data: Readonly<Record<string, unknown>>
  readonly query: boolean
  readonly body: boolean
  /** The module (as the table imports it), the array it exports, the endpoint's index in it. */
  readonly declared: readonly [string, string, number]
}

/** Every endpoint of the table, in order, read by evaluating a bundle of the table. */
export declare const endpointManifest: (esbuild: typeof build, root: string) => Promise<ReadonlyArray<ManifestEntry>>
/** The esbuild plugin giving the CLI bundle a table of stand-ins made from `manifest`. */
export declare const withLazyEndpointGroups: (manifest: ReadonlyArray<ManifestEntry>) => Plugin
