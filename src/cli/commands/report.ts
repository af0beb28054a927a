// `proctor report <report.json…>`: render one saved session report, or aggregate several (matrix jobs'
// artifacts, a batch's children) into one BatchReport. Missing or malformed files are reported as problems.
import { readFileSync } from 'node:fs'
import type { Command } from 'commander'
import { aggregateReports, parseSessionReport, type ChildInput } from '../../report/aggregate.js'
import { renderSessionTerminal } from '../../report/terminal.js'
import { renderBatchTerminal } from '../../report/batch-terminal.js'
import { CliExit, ExitCode } from '../exit.js'

interface ReportFlags {
  json?: boolean
  id?: string
}

export function registerReportCommand(program: Command): void {
  program
    .command('report')
    .description('render a saved report.json, or aggregate several into one batch report')
    .argument('<files...>', 'report.json files')
    .option('--json', 'print JSON (the session report, or the aggregated batch report)')
    .option('--id <batch-id>', 'id of the aggregated batch', 'aggregate')
    .action((files: string[], flags: ReportFlags) => {
      const inputs = files.map(readChild)
      const color = process.stdout.isTTY === true && !process.env.NO_COLOR
      if (inputs.length === 1 && inputs[0]!.report) {
        const report = inputs[0]!.report
        process.stdout.write(
          flags.json ? JSON.stringify(report, null, 2) + '\n' : renderSessionTerminal(report, { color }),
        )
        if (report.verdict !== 'allow' || report.status !== 'completed') throw new CliExit(ExitCode.failed)
        return
      }
      const batch = aggregateReports(flags.id ?? 'aggregate', inputs)
      process.stdout.write(
        flags.json ? JSON.stringify(batch, null, 2) + '\n' : renderBatchTerminal(batch, { color }),
      )
      if (batch.verdict !== 'allow') throw new CliExit(ExitCode.failed)
    })
}

function readChild(path: string): ChildInput {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    return {
      source: path,
      problem: `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    }
  }
  const parsed = parseSessionReport(text)
  return typeof parsed === 'string'
    ? { source: path, problem: `${path}: ${parsed}` }
    : { source: path, report: parsed }
}
