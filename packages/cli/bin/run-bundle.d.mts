export declare const readBundle: (file: string) => string
export declare const bundleId: (source: string) => string | undefined
export declare const compileBundle: (file: string, source?: string) => { readonly run: () => void }
