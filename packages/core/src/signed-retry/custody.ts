import { createHmac } from "node:crypto"
import { Effect } from "effect"
import { keyPairOf } from "../crypto/p256.ts"
import { Keys } from "../ports/keys.ts"

/**
 * The engine custodies delegated keys (DECISIONS #263): a key pair is derived from one server
 * secret and the key's id, so no private key is ever stored in a record, exported in a state
 * document or answered. The same id on the same server always gives the same pair. It lives
 * beside the signer rules because they check a delegated key's custody too: a key record imported
 * from elsewhere, whose public key this server did not derive, never signs here.
 */
const CUSTODY_SECRET = "delegated-keys-p256"

export const custodiedKeyPair = (delegatedKeyId: string) =>
  Effect.map(
    Effect.flatMap(Keys, (keys) => keys.secret(CUSTODY_SECRET, 32)),
    (secret) => keyPairOf(new Uint8Array(createHmac("sha256", secret).update(delegatedKeyId).digest()))
  )
