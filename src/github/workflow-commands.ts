// Annotations (`::error file=…::message`) are written by @actions/core, whose escaping keeps untrusted
// text from ending the command early or injecting another one. A line sink (tests, tools that capture
// the commands) gets the very line @actions/core writes.
import * as core from '@actions/core'

export type AnnotationLevel = 'notice' | 'warning' | 'error'

export interface AnnotationProps {
  title?: string
  file?: string
  line?: number
  endLine?: number
  col?: number
  endColumn?: number
}

/** One annotation command line as @actions/core writes it (without the trailing newline). */
export function annotationCommand(
  level: AnnotationLevel,
  message: string,
  props: AnnotationProps = {},
): string {
  // @actions/core writes a command to stdout synchronously: take that write instead of printing it.
  const written: string[] = []
  const write = process.stdout.write
  process.stdout.write = ((chunk: string | Uint8Array) => {
    written.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'))
    return true
  }) as typeof process.stdout.write
  try {
    coreAnnotator(level, message, props)
  } finally {
    process.stdout.write = write
  }
  return written.join('').replace(/\r?\n$/, '')
}

/** Writes one annotation. */
export type Annotator = (level: AnnotationLevel, message: string, props?: AnnotationProps) => void

/** Annotations through @actions/core (`core.error` / `core.warning` / `core.notice`). */
export const coreAnnotator: Annotator = (level, message, props = {}) => {
  const properties: core.AnnotationProperties = {
    ...(props.title !== undefined ? { title: props.title } : {}),
    ...(props.file !== undefined ? { file: props.file } : {}),
    ...(props.line !== undefined ? { startLine: props.line } : {}),
    ...(props.endLine !== undefined ? { endLine: props.endLine } : {}),
    ...(props.col !== undefined ? { startColumn: props.col } : {}),
    ...(props.endColumn !== undefined ? { endColumn: props.endColumn } : {}),
  }
  core[level](message, properties)
}

/** Annotations as command lines handed to `emit` (the lines @actions/core writes). */
export function lineAnnotator(emit: (line: string) => void): Annotator {
  return (level, message, props) => emit(annotationCommand(level, message, props))
}
