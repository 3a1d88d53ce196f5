import { Either } from "effect"

/**
 * A strict RFC 4180 reader, written here rather than taken from a package: the core's only
 * runtime dependencies are effect and the crypto libraries, and the grammar is small. Fields are
 * separated by commas and records by CRLF or LF; a field that holds a comma, a quote or a line
 * break is quoted, with `""` for a quote inside. A leading byte-order mark and blank lines are
 * skipped. What the RFC does not allow (a quote inside an unquoted field, text after a closing
 * quote, an unterminated quote, bytes that are not UTF-8) is a malformed file, never a guess.
 */
export interface CsvProblem {
  /** MALFORMED: not RFC 4180 (or not UTF-8); TOO_MANY_RECORDS: past the bound given. */
  readonly reason: "MALFORMED" | "TOO_MANY_RECORDS"
  /** The 1-based line of the file where reading stopped. */
  readonly line: number
  readonly message: string
}

const decoder = new TextDecoder("utf-8", { fatal: true })

export const decodeUtf8 = (bytes: Uint8Array): Either.Either<string, CsvProblem> => {
  try {
    return Either.right(decoder.decode(bytes))
  } catch {
    return Either.left({ reason: "MALFORMED", line: 1, message: "is not UTF-8 text" })
  }
}

/**
 * The records of `text`, each an array of fields. `maxRecords` bounds the work a hostile file can
 * cause: reading stops with a problem as soon as one more record would be taken.
 */
export const parseCsv = (text: string, maxRecords: number): Either.Either<ReadonlyArray<ReadonlyArray<string>>, CsvProblem> => {
  const records: Array<Array<string>> = []
  let record: Array<string> = []
  let line = 1
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0
  const endRecord = () => {
    // A line with nothing on it is no record (a trailing newline, a blank line between records).
    if (!(record.length === 1 && record[0] === "")) records.push(record)
    record = []
  }
  while (i <= text.length) {
    if (records.length > maxRecords) return Either.left({ reason: "TOO_MANY_RECORDS", line, message: `holds more than ${maxRecords} records` })
    if (text[i] === '"') {
      const start = line
      let value = ""
      i++
      for (;;) {
        if (i >= text.length) return Either.left({ reason: "MALFORMED", line: start, message: "has a quoted field that is never closed" })
        const c = text[i]!
        if (c === '"') {
          if (text[i + 1] === '"') {
            value += '"'
            i += 2
            continue
          }
          i++
          break
        }
        if (c === "\n") line++
        value += c
        i++
      }
      record.push(value)
      if (i < text.length && text[i] !== "," && text[i] !== "\n" && !(text[i] === "\r" && text[i + 1] === "\n"))
        return Either.left({ reason: "MALFORMED", line, message: "has text after a closing quote" })
    } else {
      let end = i
      while (end < text.length && text[end] !== "," && text[end] !== "\n" && !(text[end] === "\r" && text[end + 1] === "\n")) end++
      const value = text.slice(i, end)
      if (value.includes('"')) return Either.left({ reason: "MALFORMED", line, message: "has a quote inside an unquoted field" })
      record.push(value)
      i = end
    }
    if (i >= text.length) {
      endRecord()
      break
    }
    if (text[i] === ",") i++
    else {
      i += text[i] === "\r" ? 2 : 1
      line++
      endRecord()
      // The file ends with its last line break: no further record.
      if (i >= text.length) break
    }
  }
  if (records.length > maxRecords) return Either.left({ reason: "TOO_MANY_RECORDS", line, message: `holds more than ${maxRecords} records` })
  return Either.right(records)
}
