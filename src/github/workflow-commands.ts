// Workflow commands (`::error file=…::message`), escaped the way @actions/core's command.ts does, so
// untrusted text cannot end the command early or inject another one.

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
