// Workflow commands (`::error file=…::message`), escaped the way @actions/core's command.ts does, so
// untrusted text cannot end the command early or inject another one. In the action, annotations go
// through @actions/core itself (coreAnnotator); a line sink is for tests and tools that capture them.
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

export function escapeData(value: string): string {
  return value.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')
}

export function escapeProperty(value: string): string {
  return escapeData(value).replace(/:/g, '%3A').replace(/,/g, '%2C')
}

/** One annotation command line (without the trailing newline). */
export function annotationCommand(
  level: AnnotationLevel,
  message: string,
  props: AnnotationProps = {},
): string {
  const entries = Object.entries(props).filter(([, v]) => v !== undefined && v !== '')
  const params = entries.map(([k, v]) => `${k}=${escapeProperty(String(v))}`).join(',')
  return `::${level}${params ? ` ${params}` : ''}::${escapeData(message)}`
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

/** Annotations as command lines handed to `emit` (same escaping as @actions/core). */
export function lineAnnotator(emit: (line: string) => void): Annotator {
  return (level, message, props) => emit(annotationCommand(level, message, props))
}
