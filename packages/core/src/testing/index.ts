/**
 * `@tessera/core/testing`: the client toolkit. Everything a wallet app does in the auth flows,
 * for integrators' tests against Tessera (and for ours), plus fast-check arbitraries.
 */
export * from "./wallet.ts"
export * from "./passkey.ts"
export * from "./arbitraries.ts"
export { encodeCbor } from "./cbor-encode.ts"
export * from "./chain-signers.ts"
export * from "./webhooks.ts"
