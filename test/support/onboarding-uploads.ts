import { expect } from "vitest"
import { samples, type SampleKind } from "./sample-files.ts"
import type { Reply, TestServer } from "./server.ts"

/**
 * Uploads a document through HTTP, as a client would (a `FormData` sent by `fetch`), and expects
 * the 201: for tests of other onboarding parts (verifications, beneficial owners) that need a
 * holder to have documents. `salt` makes the file's bytes differ between uploads.
 */
export const uploadDocument = async (
  t: TestServer,
  holderId: string,
  documentType: string,
  kind: SampleKind = "png",
  extra: Readonly<Record<string, string>> = {},
  salt = 0
): Promise<Reply["body"]> => {
  const res = await t.request("POST", "/2025-10-13/documents", { form: documentForm(holderId, documentType, kind, extra, salt) })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body
}

/** The form of an upload, to send as it is or change first. */
export const documentForm = (
  holderId: string | undefined,
  documentType: string | undefined,
  kind: SampleKind = "png",
  extra: Readonly<Record<string, string>> = {},
  salt = 0
): FormData => {
  const sample = samples[kind]
  const form = new FormData()
  form.append("file", new Blob([sample.bytes(salt) as Uint8Array<ArrayBuffer>], { type: sample.type }), sample.name)
  if (documentType !== undefined) form.append("documentType", documentType)
  form.append("country", "US")
  if (holderId !== undefined) form.append("documentHolder", holderId)
  for (const [k, v] of Object.entries(extra)) form.append(k, v)
  return form
}
