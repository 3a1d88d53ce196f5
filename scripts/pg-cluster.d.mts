export declare const findPgBin: () => string | undefined
export declare const startCluster: () => { readonly url: string; readonly dir: string }
export declare const stopCluster: (dir: string) => void
