/**
 * `@tessera/core/testing`: the client toolkit. Everything a wallet app does in the auth flows,
 * for integrators' tests against Tessera (and for ours). The fast-check arbitraries are at
 * `@tessera/core/testing/arbitraries`, so this entry never needs fast-check installed.
 */
export * from "./wallet.ts"
export * from "./passkey.ts"
export { encodeCbor } from "./cbor-encode.ts"
export * from "./chain-signers.ts"
export * from "./webhooks.ts"
export * from "./exported-wallet.ts"
export * from "./cards.ts"
