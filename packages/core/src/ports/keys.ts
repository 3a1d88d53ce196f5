import { Context, Effect, Layer, Option } from "effect"
import { collection, SERVER_SCOPE, Store, type StoreError } from "./store.ts"
import { Ids } from "./ids.ts"
import { bytesToHex, hexToBytes } from "../crypto/encoding.ts"

interface KeyRecord {
  readonly name: string
  readonly hex: string
}

const KeyMaterial = collection<KeyRecord>()("keys", (k) => k.name)

export interface KeysService {
  /**
   * Server-side secret `name` of `size` bytes: generated on first use, then the same for the
   * life of the store, so keys the server publishes (webhook signing) survive restarts.
   */
  readonly secret: (name: string, size: number) => Effect.Effect<Uint8Array, StoreError>
}


export class Keys extends Context.Tag("@tessera/Keys")<Keys, KeysService>() {
  /** The service `stored` provides, made by an effect (the engine makes its services so, DECISIONS #509). */
  static readonly storedService: Effect.Effect<KeysService, never, Store | Ids> = Effect.gen(function* () {
    const store = yield* Store
    const ids = yield* Ids
    const cache = new Map<string, Uint8Array>()
    return {
      secret: (name, size) =>
        Effect.suspend(() => {
          const hit = cache.get(name)
          if (hit !== undefined) return Effect.succeed(hit)
          return store
            .transaction(
              Effect.gen(function* () {
                const existing = yield* store.get(KeyMaterial, SERVER_SCOPE, name)
                if (Option.isSome(existing)) return hexToBytes(existing.value.hex)!
                const fresh = yield* ids.bytes(size)
                yield* store.put(KeyMaterial, SERVER_SCOPE, { name, hex: bytesToHex(fresh) })
                return fresh
              })
            )
            .pipe(Effect.tap((k) => Effect.sync(() => cache.set(name, k))))
        })
    } satisfies KeysService
  })

  /** Key material kept in the Store's server scope. */
  static readonly stored = Layer.effect(Keys, Keys.storedService)
}
