import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, type Layer } from "effect"
import { type Engine, Notifier, type OutboxEvent, type Store } from "@tessera/core"
import { AsyncMemoryStore, MemoryStore } from "@tessera/adapter-memory"
import { SqliteStore } from "@tessera/adapter-sqlite"

/** Every store an engine test should pass on: memory, a fresh SQLite file, and the asynchronous wrapper. */
export const everyStore = (label: string): ReadonlyArray<readonly [string, () => Layer.Layer<Store>]> => [
  ["memory", () => MemoryStore.layer],
  ["sqlite", () => SqliteStore.layer({ filename: join(mkdtempSync(join(tmpdir(), `tessera-${label}-`)), "store.sqlite") })],
  ["async-memory", () => AsyncMemoryStore.layer]
]

/** Publishes a TEST event about `resourceId` straight into the outbox, noting which resource each event id is about. */
export const outboxPublisher =
  (engine: Engine, platformId: string, resources: Map<string, string>) =>
  (resourceId: string): Promise<OutboxEvent> =>
    engine.run(
      Effect.flatMap(Notifier, (n) => n.publish(platformId, { type: "TEST.EVENT", resourceId, data: {} })).pipe(
        Effect.tap((e) => Effect.sync(() => resources.set(e.id, resourceId)))
      )
    )
