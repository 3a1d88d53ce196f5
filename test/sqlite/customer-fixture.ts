import type { CustomerRecord } from "@tessera/core"

/**
 * A customer record as the store keeps it, numbered `n`: its unique keys (`pc<n>`, `$c<n>@x.test`)
 * and times derived from `n`, alternately INDIVIDUAL and BUSINESS; `extra` overrides fields. The
 * SQLite layout tests write these straight into files of older versions and through the store.
 */
export const customerRecord = (n: number, extra: Partial<Record<string, unknown>> = {}): CustomerRecord =>
  ({
    id: `Customer:${n}`,
    platformCustomerId: `pc${n}`,
    umaAddress: `$c${n}@x.test`,
    customerType: n % 2 === 0 ? "INDIVIDUAL" : "BUSINESS",
    isDeleted: false,
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
    updatedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
    ...extra
  }) as unknown as CustomerRecord
