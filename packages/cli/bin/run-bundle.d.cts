export declare const readBundle: (file: string) => string
export declare const bundleId: (source: string) => string | undefined
/** Compiles a CLI bundle through its code cache and returns its runner (it sets no V8 flag, #515). */
export declare const compileBundle: (file: string, source?: string) => { readonly run: () => void }
