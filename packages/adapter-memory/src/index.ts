export { MemoryStore, MemoryStoreHandle, type Snapshot } from "./memory-store.ts"
