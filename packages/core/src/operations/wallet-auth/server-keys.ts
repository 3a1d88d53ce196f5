import { Effect } from "effect"
import { keyPairOf } from "../../crypto/p256.ts"
import { Keys } from "../../ports/keys.ts"

// A server key is derived once per stored secret, not at every signature.
const pairs = new Map<string, ReturnType<typeof keyPairOf>>()

/** The server's P-256 key pair `name` (wallet quorum key, webhook signing key), kept in the Store. */
export const serverKeyPair = (name: string) =>
  Effect.map(Effect.flatMap(Keys, (keys) => keys.secret(name, 32)), (b) => {
    const id = `${name}:${Buffer.from(b).toString("hex")}`
    let pair = pairs.get(id)
    if (pair === undefined) pairs.set(id, (pair = keyPairOf(b)))
    return pair
  })
