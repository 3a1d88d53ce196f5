/** Where a name of a module's exports is declared: the declaring module's path and its name there. */
export interface Declared {
  readonly file: string
  readonly name: string
}

/** Every name `file` exports (types included), each with the module that declares it, through re-exports. */
export declare const declaredExports: (file: string) => ReadonlyMap<string, Declared>
/** `source` (the file `where`) with its imports and loads of "@tessera/core" naming the declaring modules. */
export declare const directCoreImports: (source: string, exportsOf: ReadonlyMap<string, Declared>, where: string) => string
/** The names of an import's braces: type-only ones, and the others with their local alias. */
export declare const importSpecs: (list: string) => { readonly types: ReadonlyArray<string>; readonly values: ReadonlyArray<{ readonly name: string; readonly alias: string }> }
