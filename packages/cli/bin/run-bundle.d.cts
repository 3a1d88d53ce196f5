export declare const readBundle: (file: string) => string
export declare const bundleId: (source: string) => string | undefined
/**
 * Compiles a CLI bundle through its code cache and returns its runner. The first call also loads
 * the built-in modules a start needs and sets V8's young-generation flag for the process (#490).
 */
export declare const compileBundle: (file: string, source?: string) => { readonly run: () => void }
