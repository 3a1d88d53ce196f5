/**
 * `@tessera/core/store-kit`: what storage adapters share, so each implements only its medium:
 * the write permit and serialised transactions (with retry and async hooks), single writes,
 * index key helpers and the list planner. Not needed to use the engine.
 */
export * from "./ports/transaction-context.ts"
export * from "./ports/store-query.ts"
export * from "./ports/store-twins.ts"
