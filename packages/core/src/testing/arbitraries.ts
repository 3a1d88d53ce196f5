import fc from "fast-check"
import { keyPairFrom } from "../crypto/p256.ts"
import type { KeyPair } from "./wallet.ts"

/** A P-256 key pair drawn from fast-check's randomness, so failures shrink and replay. */
export const arbKeyPair: fc.Arbitrary<KeyPair> = fc
  .uint8Array({ minLength: 32, maxLength: 32 })
  .map((b) => keyPairFrom(b))
  .filter((k): k is KeyPair => k !== undefined)

/** A `clientPublicKey` as clients send it: compressed (client-held) or uncompressed (legacy). */
export const arbClientKey = fc.tuple(arbKeyPair, fc.boolean()).map(([k, compressed]) => ({
  keyPair: k,
  clientPublicKey: compressed ? k.publicKey : k.publicKeyUncompressed
}))

/** Steps of a wallet's life, for state-machine properties over credentials and sessions. */
export type WalletStep =
  | { readonly _tag: "AddPasskey" }
  | { readonly _tag: "AddSms" }
  | { readonly _tag: "LoginEmail" }
  | { readonly _tag: "LoginPasskey"; readonly which: number }
  | { readonly _tag: "RevokeCredential"; readonly which: number; readonly signWith: number }
  | { readonly _tag: "RevokeSession"; readonly which: number; readonly signWith: number }
  | { readonly _tag: "Advance"; readonly seconds: number }
  | { readonly _tag: "ReuseRequestId" }

export const arbWalletStep: fc.Arbitrary<WalletStep> = fc.oneof(
  fc.constant({ _tag: "AddPasskey" } as const),
  fc.constant({ _tag: "AddSms" } as const),
  fc.constant({ _tag: "LoginEmail" } as const),
  fc.record({ _tag: fc.constant("LoginPasskey" as const), which: fc.nat(5) }),
  fc.record({ _tag: fc.constant("RevokeCredential" as const), which: fc.nat(5), signWith: fc.nat(5) }),
  fc.record({ _tag: fc.constant("RevokeSession" as const), which: fc.nat(5), signWith: fc.nat(5) }),
  fc.record({ _tag: fc.constant("Advance" as const), seconds: fc.integer({ min: 1, max: 1200 }) }),
  fc.constant({ _tag: "ReuseRequestId" } as const)
)
