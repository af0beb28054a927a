// Maps a key path in the parsed config back to a line and column in the YAML source.
import { isMap, isNode, isScalar, type Document, type LineCounter } from 'yaml'

export interface Position {
  line: number
  col: number
}

const START: Position = { line: 1, col: 1 }

/**
 * Where `path` is written. With `atKey`, the key itself (an unknown key is a problem of the key, not of
 * its value); for a path that does not exist (a missing key), the nearest enclosing node that does.
 */
export function positionOf(
  doc: Document,
  lineCounter: LineCounter,
  path: readonly PropertyKey[],
  atKey = false,
): Position {
  const at = (offset: number): Position => lineCounter.linePos(offset)
  if (atKey && path.length > 0) {
    const parent = nodeAt(doc, path.slice(0, -1))
    const key = String(path[path.length - 1])
    if (isMap(parent)) {
      const pair = parent.items.find((item) => isScalar(item.key) && String(item.key.value) === key)
      if (isNode(pair?.key) && pair.key.range) return at(pair.key.range[0])
    }
  }
  for (let length = path.length; length >= 0; length--) {
    const node = nodeAt(doc, path.slice(0, length))
    if (isNode(node) && node.range) return at(node.range[0])
  }
  return START
}

function nodeAt(doc: Document, path: readonly PropertyKey[]): unknown {
  if (path.length === 0) return doc.contents
  return doc.getIn(path, true)
}
