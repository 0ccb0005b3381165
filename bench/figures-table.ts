/**
 * @module The benchmark's one table: each figure beside its baseline and
 * their ratio, printed for people and written as JSON for programs
 * (docs/benchmarks.md says what each row means).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, platform, totalmem } from 'node:os';
import { join } from 'node:path';
import stringWidth from 'string-width';
import type { CallTimings } from './measure.ts';

/** The sections of the table (docs/benchmarks.md). */
export const SECTIONS = {
  P1: 'tool-call overhead',
  P2: 'search at scale',
  P3: 'route change to tools registered',
  P4: 'JavaScript shipped',
  P5: 'two instances on one PostgreSQL against one',
  P6: 'start to first 200',
  R5: 'many MCP clients on one instance',
} as const;

export type SectionId = keyof typeof SECTIONS;

/** A measured figure: timings of repeated calls (ms), or one value in its unit. */
export type Figure = { kind: 'timing'; timings: CallTimings } | { kind: 'value'; value: number; unit: ValueUnit };

/** The unit of a one-value figure: bytes, milliseconds, seconds, or tool calls answered per second. */
export type ValueUnit = 'bytes' | 'ms' | 's' | 'calls/s';

/** One row of the table. */
export type FigureRow = {
  section: SectionId;
  /** What was measured, in words (the dialect and size, the tool and surface…). */
  what: string;
  figure: Figure;
  /** What it is compared with, measured in the same run, if anything. */
  baseline?: { what: string; figure: Figure };
  /** figure ÷ baseline: of the p50s for timings, of the values otherwise. Absent without a baseline. */
  ratio?: number;
  /** A target the row is held to, and whether this run met it. */
  goal?: { text: string; met: boolean };
  /** Facts that explain the row (how many matches, samples…), for the JSON. */
  details?: Record<string, number | string | boolean>;
};

/** The figure's central value: p50 for timings, the value otherwise. */
export function centralValue(figure: Figure): number {
  return figure.kind === 'timing' ? figure.timings.p50 : figure.value;
}

/**
 * A row, its ratio computed from the figure and the baseline ({@link FigureRow.ratio}).
 *
 * @example
 * figureRow({ section: 'P1', what: 'save_event, pipeline', figure: timing(t.figure), baseline: { what: 'domain call', figure: timing(t.baseline) } });
 */
export function figureRow(row: Omit<FigureRow, 'ratio'>): FigureRow {
  if (!row.baseline) return row;
  const base = centralValue(row.baseline.figure);
  return { ...row, ratio: base === 0 ? Number.NaN : centralValue(row.figure) / base };
}

/** A timing figure. */
export function timing(timings: CallTimings): Figure {
  return { kind: 'timing', timings };
}

/** A figure of one value in `unit`. */
export function value(amount: number, unit: ValueUnit): Figure {
  return { kind: 'value', value: amount, unit };
}

/** A figure as a person reads it: "p50 / p95 ms" for timings; kB (1000 bytes), MB, ms, s or calls/s for values. */
export function formatFigure(figure: Figure): string {
  if (figure.kind === 'timing') return `${formatMs(figure.timings.p50)} / ${formatMs(figure.timings.p95)} ms`;
  if (figure.unit === 'ms') return `${formatMs(figure.value)} ms`;
  if (figure.unit === 's') return `${figure.value.toFixed(1)} s`;
  if (figure.unit === 'calls/s') return `${figure.value.toFixed(0)} calls/s`;
  return figure.value >= 10_000_000 ? `${(figure.value / 1e6).toFixed(1)} MB` : `${(figure.value / 1000).toFixed(1)} kB`;
}

function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return '-';
  if (ms >= 100) return ms.toFixed(0);
  if (ms >= 10) return ms.toFixed(1);
  return ms >= 0.1 ? ms.toFixed(2) : ms.toFixed(3);
}

function formatRatio(ratio: number | undefined): string {
  if (ratio === undefined) return '';
  if (!Number.isFinite(ratio)) return '-';
  return ratio >= 10 ? `${ratio.toFixed(0)}×` : ratio >= 0.1 ? `${ratio.toFixed(2)}×` : `${ratio.toFixed(3)}×`;
}

/**
 * The table as lines of text: one row per figure, columns padded to the
 * widest cell as a terminal shows it (CJK characters take two columns).
 */
export function tableLines(rows: readonly FigureRow[]): string[] {
  const header = ['', 'what', 'figure (p50 / p95)', 'baseline', 'baseline figure', 'ratio', 'goal'];
  const cells = rows.map((row) => [
    row.section,
    row.what,
    formatFigure(row.figure),
    row.baseline?.what ?? '',
    row.baseline ? formatFigure(row.baseline.figure) : '',
    formatRatio(row.ratio),
    row.goal ? `${row.goal.met ? 'met' : 'NOT met'}: ${row.goal.text}` : '',
  ]);
  const widths = header.map((title, column) => Math.max(stringWidth(title), ...cells.map((line) => stringWidth(line[column]!))));
  const line = (values: string[]) =>
    values
      .map((cell, column) => cell + ' '.repeat(widths[column]! - stringWidth(cell)))
      .join('  ')
      .trimEnd();
  return [line(header), ...cells.map(line)];
}

/** What the JSON file holds. */
export type BenchResults = {
  startedAt: string;
  finishedAt: string;
  /** `loadAverage`: the 1, 5 and 15-minute load averages when the run ended (other work on the machine skews timings). */
  machine: { cpus: number; cpuModel: string; memoryBytes: number; platform: string; node: string; loadAverage: number[] };
  /** The command's settings (sizes, quick…), as it read them. */
  settings: Record<string, unknown>;
  /** The sections run, by id, with their titles. */
  sections: Array<{ id: SectionId; title: string }>;
  rows: FigureRow[];
};

/**
 * Writes the results to `<folder>/bench-<started date-time>.json` (the
 * folder created when missing).
 *
 * @returns the file's path.
 */
export function writeResults(folder: string, results: Omit<BenchResults, 'machine'>): string {
  mkdirSync(folder, { recursive: true });
  const machine = {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryBytes: totalmem(),
    platform: platform(),
    node: process.version,
    loadAverage: loadavg().map((load) => Number(load.toFixed(2))),
  };
  const file = join(folder, `bench-${results.startedAt.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify({ ...results, machine }, null, 2)}\n`);
  return file;
}
