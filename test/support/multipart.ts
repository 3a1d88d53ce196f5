/**
 * A multipart/form-data body built by hand, byte for byte, for tests that must control the wire
 * (a fixed boundary, a missing Content-Type, a repeated name) and for the fuzzer, which builds
 * bodies synchronously. Tests that need no control use the web `FormData` with `fetch`.
 */

export interface RawPart {
  readonly name: string
  readonly value: string | Uint8Array
  /** Makes the part a file part (`filename="..."`). */
  readonly fileName?: string
  /** The part's Content-Type header; left out when undefined. */
  readonly contentType?: string
}

export const BOUNDARY = "----tessera-test-boundary-4b1d"

export const multipartContentType = (boundary = BOUNDARY) => `multipart/form-data; boundary=${boundary}`

const quote = (s: string) => s.replace(/"/g, "%22").replace(/\r/g, "%0D").replace(/\n/g, "%0A")

export const encodeMultipart = (parts: ReadonlyArray<RawPart>, boundary = BOUNDARY): Buffer =>
  Buffer.concat([
    ...parts.map((p) => {
      const disposition = `Content-Disposition: form-data; name="${quote(p.name)}"${p.fileName === undefined ? "" : `; filename="${quote(p.fileName)}"`}`
      const head = `--${boundary}\r\n${disposition}\r\n${p.contentType === undefined ? "" : `Content-Type: ${p.contentType}\r\n`}\r\n`
      return Buffer.concat([Buffer.from(head, "utf8"), typeof p.value === "string" ? Buffer.from(p.value, "utf8") : Buffer.from(p.value), Buffer.from("\r\n")])
    }),
    Buffer.from(`--${boundary}--\r\n`)
  ])

/** Text fields as parts, in order. */
export const textParts = (fields: Readonly<Record<string, string>>): Array<RawPart> =>
  Object.entries(fields).map(([name, value]) => ({ name, value }))
