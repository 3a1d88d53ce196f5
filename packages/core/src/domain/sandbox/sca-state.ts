import { Schema } from "effect"
import { NonEmpty, optional } from "../common.ts"
import { ScaProfiles, ScaResets } from "../collections.ts"
import { IdSchema } from "../ids.ts"
import { scaFactors } from "../sca/records.ts"
import { lazily } from "./lazily.ts"

/**
 * SCA state in a state document (DECISIONS #229): the fields the machines and views read, with
 * their types; like every record, checked and never rewritten.
 */
export const scaStates = lazily(() => {
  const Millis = Schema.Number.pipe(Schema.int(), Schema.between(0, 8.64e15, { message: () => "must be a time in ms since 1970" }))
  const Count = Schema.Number.pipe(Schema.int(), Schema.nonNegative())
  const Factor = Schema.Literal(...scaFactors)

  const ScaChallengeState = Schema.Struct({
    id: IdSchema("ScaChallenge"),
    factor: Factor,
    availableFactors: Schema.Array(Factor),
    purpose: optional(Schema.String),
    expiresAtMs: Millis,
    sentAtMs: Millis,
    failedAttempts: Count,
    passkeyChallenge: optional(Schema.String)
  })

  const Passkey = Schema.Union(
    Schema.Struct({ enrolled: Schema.Literal(false), challenge: NonEmpty(256), expiresAtMs: Millis }),
    Schema.Struct({
      enrolled: Schema.Literal(true),
      enrolledAt: Schema.String,
      credential: Schema.Struct({ credentialId: NonEmpty(1024), publicKey: Schema.String, rpIdHash: Schema.String, origin: Schema.String, signCount: Count })
    })
  )

  const ScaProfileState = Schema.Struct({
    id: IdSchema("Customer"),
    totp: optional(Schema.Struct({ secret: NonEmpty(256), enrolled: Schema.Boolean, expiresAtMs: optional(Millis) })),
    passkey: optional(Passkey),
    login: optional(ScaChallengeState),
    sessionExpiresAtMs: optional(Millis),
    failedAttempts: Count,
    lockedUntilMs: optional(Millis),
    suspended: Schema.Boolean,
    resetStarts: Schema.Array(Millis)
  })

  const ScaResetState = Schema.Struct({
    id: IdSchema("ScaReset"),
    customerId: IdSchema("Customer"),
    factor: Factor,
    startedAtMs: Millis,
    expiresAtMs: Millis,
    completedAtMs: optional(Millis)
  })
  return { ScaChallengeState, ScaProfileState, ScaResetState }
})

export const scaStateCollections = [
  { collection: ScaProfiles, schema: () => scaStates().ScaProfileState },
  { collection: ScaResets, schema: () => scaStates().ScaResetState }
] as const
