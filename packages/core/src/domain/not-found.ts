import { ReferenceNotFound } from "./errors.ts"

/**
 * The resources the reference's 404 enum names no code for. Their 404 is the enum's generic
 * `REFERENCE_NOT_FOUND` (the id given references nothing of this platform), and
 * `details.resource` says which kind of id it was (DECISIONS #133). Customers have their own
 * code, `USER_NOT_FOUND`; the HTTP layer's `NOT_FOUND` means only "no route".
 */
const referenced = {
  ExternalAccount: "External account",
  InternalAccount: "Internal account",
  AuthMethod: "Credential",
  Session: "Session",
  BeneficialOwner: "Beneficial owner",
  Verification: "Verification",
  Document: "Document",
  Card: "Card",
  CardFundingSource: "Card funding source",
  DelegatedKey: "Delegated key",
  ScaFactor: "SCA factor",
  ScaReset: "2FA reset",
  Stablecoin: "Stablecoin",
  StablecoinOperation: "Stablecoin operation",
  Agent: "Agent",
  AgentAction: "Agent action",
  AgentDeviceCode: "Device code"
} as const

export type ReferencedResource = keyof typeof referenced

/** `context` adds what the id was looked up from, when it was derived rather than given. */
export const referenceNotFound = (resource: ReferencedResource, id: string, context: Readonly<Record<string, string>> = {}) =>
  new ReferenceNotFound({ message: `${referenced[resource]} ${id} not found`, details: { resource, id, ...context } })
