export { MemoryStore, MemoryStoreHandle, type Snapshot } from "./memory-store.ts"
export * from "./async-memory-store.ts"
